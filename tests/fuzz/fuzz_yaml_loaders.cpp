// Any bytes given to the preset and scenario loaders yield a value or an Error, never a crash;
// whatever loads must also estimate without overflow (UBSan watches the arithmetic).
#include "core/estimate.h"
#include "core/presets.h"
#include "core/scenariofile.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (auto doc = vl::parseScenarioDocument(text, "fuzz.vramledger.yaml"))
        (void)vl::estimate(doc->scenario);
    if (auto model = vl::parseModelPreset(text, "fuzz.yaml")) {
        vl::Scenario s;
        s.arch = model->arch;
        if (!vl::scenarioError(s))
            (void)vl::estimate(s);
    }
    (void)vl::parseGpuPresets(text, "fuzz-gpus.yaml");
    return 0;
}
