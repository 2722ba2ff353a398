#pragma once
// View → Custom GPU: one form for a GPU that is not among the presets - its name, the memory the
// driver reports and, for an NVIDIA GPU, its compute capability (which sizes cuBLAS's workspaces).

#include "core/presets.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace vl {

class CustomGpuDialog : public QDialog {
    Q_OBJECT
public:
    explicit CustomGpuDialog(QWidget *parent = nullptr);
    GpuPreset gpu() const; // what the form says, as a user preset

private:
    QLineEdit *m_name = nullptr;
    QDoubleSpinBox *m_memory = nullptr;
    QComboBox *m_capability = nullptr;
};

} // namespace vl
