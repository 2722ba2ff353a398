#include "ui/customgpudialog.h"

#include "ui/theme.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

namespace vl {

CustomGpuDialog::CustomGpuDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Custom GPU"));
    auto *form = new QFormLayout(this);
    m_name = new QLineEdit(tr("My GPU"), this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->selectAll();
    form->addRow(tr("Name:"), m_name);
    m_memory = new QDoubleSpinBox(this);
    m_memory->setObjectName(QStringLiteral("memory"));
    m_memory->setRange(1.0, 16384.0);
    m_memory->setDecimals(2);
    m_memory->setValue(24.0);
    m_memory->setSuffix(QStringLiteral(" GiB"));
    m_memory->setToolTip(tr("Memory as the driver reports it: nvidia-smi's MiB ÷ 1024."));
    form->addRow(tr("Memory:"), m_memory);
    m_capability = new QComboBox(this);
    m_capability->setObjectName(QStringLiteral("compute-capability"));
    m_capability->addItem(tr("Not known, or not NVIDIA"), 0);
    for (int major : computeCapabilities())
        m_capability->addItem(computeCapabilityName(major), major);
    m_capability->setToolTip(tr("Checked first, the GPU sets the scenario's compute capability, which sizes "
                                "cuBLAS's workspaces; left unknown, it leaves the scenario's as it is."));
    form->addRow(tr("Compute capability:"), m_capability);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // A GPU needs a name: OK waits for one.
    connect(m_name, &QLineEdit::textChanged, this, [buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
    form->addRow(buttons);
}

GpuPreset CustomGpuDialog::gpu() const
{
    GpuPreset gpu = customGpu(m_name->text().trimmed().toStdString(), wholeMiBOfGiB(m_memory->value()));
    gpu.computeCapability = m_capability->currentData().toInt();
    return gpu;
}

} // namespace vl
