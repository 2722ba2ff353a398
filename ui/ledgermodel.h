#pragma once
// The GUI's single source of truth: the scenario document, the presets, the display options,
// and the Analysis core computed from them. Widgets edit through it and draw what it holds.

#include "core/analysis.h"
#include "core/presets.h"
#include "core/scenariofile.h"
#include "ui/shown.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace vl {

class LedgerModel : public QObject {
    Q_OBJECT
public:
    explicit LedgerModel(PresetCatalog catalog, QObject *parent = nullptr);

    const PresetCatalog &catalog() const { return m_catalog; }
    int catalogRevision() const { return m_catalogRevision; } // changes whenever a preset is added or replaced
    const ScenarioDocument &document() const { return m_document; }
    const Scenario &scenario() const { return m_document.scenario; }
    const Analysis &analysis() const { return m_shown->analysis; }
    ShownPtr shown() const { return m_shown; } // what every view draws
    const AnalysisOptions &options() const { return m_options; }
    const std::vector<GpuPreset> &selectedGpus() const { return m_gpus; }
    Units units() const { return m_options.units; }
    // The preset the architecture came from, or nullptr once it was edited away from it.
    const ModelPreset *modelPreset() const;

    // Returns the GPU ids of the document that no preset has (left out).
    QStringList setDocument(ScenarioDocument document);
    void setScenario(const Scenario &scenario);
    void setModel(const QString &presetId);
    void setGpuIds(const QStringList &ids);
    QStringList gpuIds() const;
    void setUnits(Units units);
    void setFitRule(FitRule rule);
    void setBarSet(BarSet bars);
    void setLadderOrder(std::vector<Lever> order);

    void pinCurrent(const QString &name);
    void renamePin(int index, const QString &name);
    void movePin(int index, int offset);
    void removePin(int index);

    // Adds a model (imported config.json) to the catalog and selects it.
    void addModel(ModelPreset preset);
    // Adds (or replaces) a GPU in the catalog and checks it.
    void addGpu(GpuPreset gpu);

Q_SIGNALS:
    // Something changed and analysis() was recomputed.
    void changed();

private:
    void recompute();

    PresetCatalog m_catalog;
    int m_catalogRevision = 0;
    ScenarioDocument m_document;
    AnalysisOptions m_options;
    std::vector<GpuPreset> m_gpus;
    ShownPtr m_shown = std::make_shared<const Shown>();
};

} // namespace vl
