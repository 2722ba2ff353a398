#include "ui/ledgermodel.h"

#include "core/edits.h"

#include <algorithm>

namespace vl {

LedgerModel::LedgerModel(PresetCatalog catalog, QObject *parent) : QObject(parent), m_catalog(std::move(catalog))
{
    ScenarioDocument first = articleExampleDocument();
    // The pins of the first launch are ours to name, in the reader's language.
    first.pins[0].name = tr("FP32").toStdString();
    first.pins[1].name = tr("AMP as printed (no master copy)").toStdString();
    setDocument(std::move(first));
}

const ModelPreset *LedgerModel::modelPreset() const
{
    const ModelPreset *preset = m_catalog.findModel(m_document.modelId);
    return preset && preset->arch == m_document.scenario.arch ? preset : nullptr;
}

QStringList LedgerModel::setDocument(ScenarioDocument document)
{
    m_document = std::move(document);
    m_options.units = m_document.units;
    PresetCatalog::ResolvedGpus resolved = m_catalog.resolveGpus(m_document.gpuIds);
    m_gpus = std::move(resolved.found);
    m_document.gpuIds = std::move(resolved.ids); // the ones not found stay, so saving keeps them
    recompute();
    QStringList unknown;
    for (const std::string &id : resolved.missing)
        unknown << QString::fromStdString(id);
    return unknown;
}

void LedgerModel::setScenario(const Scenario &scenario)
{
    if (scenario == m_document.scenario || scenarioError(scenario))
        return; // controls only offer valid values; an invalid one must never reach the chart
    m_document.scenario = scenario;
    recompute();
}

void LedgerModel::setModel(const QString &presetId)
{
    const ModelPreset *preset = m_catalog.findModel(presetId.toStdString());
    if (!preset)
        return;
    const Scenario next = withModel(m_document.scenario, preset->arch);
    if (scenarioError(next))
        return;
    m_document.modelId = preset->id;
    m_document.scenario = next;
    recompute();
}

void LedgerModel::setGpuIds(const QStringList &ids)
{
    const std::string firstBefore = m_gpus.empty() ? std::string() : m_gpus.front().id;
    m_document.gpuIds.clear();
    m_gpus.clear();
    for (const QString &id : ids)
        if (const GpuPreset *gpu = m_catalog.findGpu(id.toStdString())) {
            m_document.gpuIds.push_back(gpu->id);
            m_gpus.push_back(*gpu);
        }
    // The run is checked against the first GPU (the solvers' and the ladder's): a new first GPU
    // brings its compute capability, as --gpu does in the CLI.
    if (!m_gpus.empty() && m_gpus.front().id != firstBefore)
        m_document.scenario = withGpu(m_document.scenario, m_gpus.front(), {});
    recompute();
}

QStringList LedgerModel::gpuIds() const
{
    QStringList ids;
    for (const std::string &id : m_document.gpuIds)
        ids << QString::fromStdString(id);
    return ids;
}

void LedgerModel::setUnits(Units units)
{
    m_document.units = units;
    m_options.units = units;
    recompute();
}

void LedgerModel::setFitRule(FitRule rule)
{
    m_options.fitRule = rule;
    recompute();
}

void LedgerModel::setBarSet(BarSet bars)
{
    m_options.bars = bars;
    recompute();
}

void LedgerModel::setLadderOrder(std::vector<Lever> order)
{
    m_options.ladderOrder = std::move(order);
    recompute();
}

void LedgerModel::pinCurrent(const QString &name)
{
    m_document.pins.push_back(Pin{name.toStdString(), m_document.modelId, m_document.scenario});
    recompute();
}

void LedgerModel::renamePin(int index, const QString &name)
{
    if (index < 0 || index >= int(m_document.pins.size()))
        return;
    m_document.pins[std::size_t(index)].name = name.toStdString();
    recompute();
}

void LedgerModel::movePin(int index, int offset)
{
    const int target = index + offset;
    if (index < 0 || target < 0 || index >= int(m_document.pins.size()) || target >= int(m_document.pins.size()))
        return;
    std::swap(m_document.pins[std::size_t(index)], m_document.pins[std::size_t(target)]);
    recompute();
}

void LedgerModel::removePin(int index)
{
    if (index < 0 || index >= int(m_document.pins.size()))
        return;
    m_document.pins.erase(m_document.pins.begin() + index);
    recompute();
}

void LedgerModel::addModel(ModelPreset preset)
{
    const QString id = QString::fromStdString(preset.id);
    m_catalog.addUserPreset(std::move(preset));
    ++m_catalogRevision;
    setModel(id);
}

void LedgerModel::addGpu(GpuPreset gpu)
{
    const QString id = QString::fromStdString(gpu.id);
    m_catalog.addUserPreset(std::move(gpu));
    ++m_catalogRevision;
    QStringList ids = gpuIds();
    ids.removeAll(id);
    ids << id;
    setGpuIds(ids);
}

void LedgerModel::recompute()
{
    m_shown = shownFor(m_document, m_gpus, m_options);
    Q_EMIT changed();
}

} // namespace vl
