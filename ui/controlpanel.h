#pragma once
// The controls: a model, the five sliders the design names (batch, sequence, hidden size,
// layers, precision), the GPUs to compare against, and an "Advanced" group that folds away
// for teaching. It edits a copy of the scenario and hands it on; it computes nothing.

#include "core/scenario.h"

#include <QWidget>

#include <functional>
#include <string_view>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QListWidget;
class QSpinBox;
class QPushButton;

namespace vl {

class ChoiceSlider;
class LedgerModel;
class SliderSpin;
struct FieldSpec;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(LedgerModel &model, QWidget *parent = nullptr);

    void setAdvancedVisible(bool visible);
    void setPresenting(bool presenting); // the five sliders only
    bool advancedVisible() const;

    // For tests and presentation: the five named controls.
    SliderSpin *batchSlider() const { return m_batch; }
    SliderSpin *sequenceSlider() const { return m_sequence; }
    SliderSpin *hiddenSlider() const { return m_hidden; }
    SliderSpin *layersSlider() const { return m_layers; }
    ChoiceSlider *precisionSlider() const { return m_precision; }
    QListWidget *gpuList() const { return m_gpus; }
    QComboBox *modelBox() const { return m_modelBox; }
    // A field as its control's label names it ("Sequence length"); "" where no control edits it.
    QString fieldLabel(std::string_view field) const;

Q_SIGNALS:
    void importConfigRequested();
    void hubImportRequested();
    void customGpuRequested();
    // An edit that would make the scenario invalid was undone; `why` says what does not fit.
    void editRefused(const QString &why);

protected:
    void changeEvent(QEvent *event) override;

private:
    void build();
    void retranslate();
    void syncFromModel(); // the model changed: show it, without echoing edits back
    void syncModelBox();
    void syncGpuList();
    // A control changed `field`: `change` sets it on a copy of the scenario, core's edit rules
    // follow (withEditRules()), and an invalid result is refused with core's message.
    void edit(std::string_view field, const std::function<void(Scenario &)> &change);
    void editInteger(std::string_view field, int value); // through the field table
    QSpinBox *fieldSpinBox(std::string_view field);
    void emitGpus();

    LedgerModel &m_model;
    bool m_syncing = false;
    int m_shownRevision = -1; // the catalog revision the model and GPU lists show

    QComboBox *m_modelBox = nullptr;
    QPushButton *m_importButton = nullptr;
    SliderSpin *m_batch = nullptr;
    SliderSpin *m_sequence = nullptr;
    SliderSpin *m_hidden = nullptr;
    SliderSpin *m_layers = nullptr;
    ChoiceSlider *m_precision = nullptr;
    QListWidget *m_gpus = nullptr;
    QPushButton *m_customGpu = nullptr;

    QGroupBox *m_advanced = nullptr;
    QGroupBox *m_modelGroup = nullptr;
    QGroupBox *m_gpuGroup = nullptr;
    QWidget *m_advancedBody = nullptr;
    QSpinBox *m_heads = nullptr;
    QSpinBox *m_kvHeads = nullptr;
    QSpinBox *m_ffn = nullptr;
    QSpinBox *m_vocab = nullptr;
    QSpinBox *m_maxPositions = nullptr;
    QComboBox *m_optimizer = nullptr;
    QCheckBox *m_master = nullptr;
    QComboBox *m_gradDtype = nullptr;
    QComboBox *m_zero = nullptr;
    QSpinBox *m_dp = nullptr;
    QSpinBox *m_tp = nullptr;
    QSpinBox *m_pp = nullptr;
    QSpinBox *m_gradAccum = nullptr;
    QCheckBox *m_sp = nullptr;
    QComboBox *m_offload = nullptr;
    QSpinBox *m_gpusPerNode = nullptr;
    QComboBox *m_sharding = nullptr;
    QSpinBox *m_replicas = nullptr;
    QSpinBox *m_cp = nullptr;
    QSpinBox *m_ep = nullptr;
    QSpinBox *m_vocabPadding = nullptr;
    QComboBox *m_fsdpVersion = nullptr;
    QCheckBox *m_reshard = nullptr;
    QComboBox *m_implementation = nullptr;
    QCheckBox *m_liger = nullptr;
    QCheckBox *m_perLayerRope = nullptr;
    QCheckBox *m_kvRepeat = nullptr;
    QCheckBox *m_paddingMask = nullptr;
    QComboBox *m_pytorch = nullptr;
    QComboBox *m_transformers = nullptr;
    QComboBox *m_ampStyle = nullptr;
    QComboBox *m_recompute = nullptr;
    QCheckBox *m_useReentrant = nullptr;
    QCheckBox *m_activationOffload = nullptr;
    QComboBox *m_attention = nullptr;
    QComboBox *m_loss = nullptr;
    QCheckBox *m_packed = nullptr;
    QCheckBox *m_dataloaderMask = nullptr;
    QCheckBox *m_rerunKeepsBatches = nullptr;
    QCheckBox *m_groupedGemm = nullptr;
    QComboBox *m_expertLoad = nullptr;
    QCheckBox *m_dropout = nullptr;
    QComboBox *m_fineTune = nullptr;
    QSpinBox *m_loraRank = nullptr;
    QCheckBox *m_loraDropout = nullptr;
    QCheckBox *m_adaptersFp32 = nullptr;
    QList<QCheckBox *> m_loraTargets; // one per target, in loraTargetNames() order
    QCheckBox *m_doubleQuant = nullptr;
    QComboBox *m_bitsandbytes = nullptr;
    QComboBox *m_optimizerImpl = nullptr;
    QCheckBox *m_pagedOptimizer = nullptr;
    QCheckBox *m_optimizerInBackward = nullptr;
    QCheckBox *m_gradientsKept = nullptr;
    QComboBox *m_baseDtype = nullptr;
    QComboBox *m_measure = nullptr;
    QComboBox *m_cudaLoading = nullptr;
    QComboBox *m_computeCapability = nullptr;
    QCheckBox *m_nvls = nullptr;
    QComboBox *m_nccl = nullptr;
    QCheckBox *m_noSync = nullptr;
    QCheckBox *m_origParams = nullptr;
    QCheckBox *m_ddpBucketView = nullptr;
    QCheckBox *m_overlapComm = nullptr;
    QCheckBox *m_zeroInit = nullptr;
    QSpinBox *m_allocator = nullptr;
    std::vector<std::pair<QSpinBox *, const FieldSpec *>> m_fieldSpins; // ranged by core
    // Every control that edits a field, enabled where core says the field is in effect (fieldInEffect).
    std::vector<std::pair<QWidget *, std::string_view>> m_fieldControls;
    std::vector<std::pair<QWidget *, std::function<QString()>>> m_labels; // each row's control and label

    // Every user-visible text is set by one of these, run again on a language change.
    std::vector<std::function<void()>> m_texts;
    void addText(std::function<void()> setText);
};

} // namespace vl
