// Any bytes given to the config.json importer yield a preset or an Error, never a crash.
#include "core/estimate.h"
#include "core/hfconfig.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (auto model = vl::importHfConfig(text, "config.json")) {
        vl::Scenario s;
        s.arch = model->arch;
        if (!vl::scenarioError(s))
            (void)vl::estimate(s);
    }
    return 0;
}
