#include "ui/shown.h"

namespace vl {

ShownPtr shownFor(const ScenarioDocument &document, std::vector<GpuPreset> gpus, const AnalysisOptions &options)
{
    Analysis analysis = analyse(document, gpus, options);
    return std::make_shared<const Shown>(Shown{std::move(analysis), document.scenario, std::move(gpus), options.units});
}

} // namespace vl
