#include "ui/sliderspin.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace vl {

namespace {

constexpr int kStepsPerDoubling = 8; // slider positions between two powers of two

bool fineSteps()
{
    return QApplication::keyboardModifiers().testFlag(Qt::ShiftModifier);
}

// Arrow keys and the wheel double and halve the value; with Shift they add the fine step.
class DoublingSpinBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;
    void stepBy(int steps) override
    {
        if (fineSteps()) {
            QSpinBox::stepBy(steps);
            return;
        }
        int v = value();
        for (int i = 0; i < std::abs(steps); ++i)
            v = steps > 0 ? std::min(maximum(), v * 2) : std::max(minimum(), v / 2);
        setValue(v);
    }
};

} // namespace

SliderSpin::SliderSpin(Scale scale, int minimum, int maximum, int step, const QString &suffix, QWidget *parent)
    : QWidget(parent), m_scale(scale), m_step(step), m_sliderMaximum(maximum),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_spin(scale == Scale::PowersOfTwo ? new DoublingSpinBox(this) : new QSpinBox(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    m_spin->setSuffix(suffix);
    m_spin->setSingleStep(step);
    m_spin->setAccelerated(true);
    m_spin->setKeyboardTracking(false);
    // One width for every slider row, so that the spin boxes line up: room for 8 digits.
    m_spin->setFixedWidth(m_spin->fontMetrics().horizontalAdvance(QStringLiteral("00000000")) + 28);
    m_slider->setMinimumWidth(90);
    setRange(minimum, maximum);
    connect(m_slider, &QSlider::valueChanged, this, &SliderSpin::onSliderMoved);
    connect(m_spin, &QSpinBox::valueChanged, this, &SliderSpin::onSpinChanged);
    setFocusProxy(m_spin);
}

int SliderSpin::value() const
{
    return m_spin->value();
}

void SliderSpin::setRange(int minimum, int maximum)
{
    if (minimum == m_spin->minimum() && maximum == m_spin->maximum())
        return; // a new range re-lays the window out: only when it really changes
    const QSignalBlocker blockSpin(m_spin), blockSlider(m_slider);
    m_spin->setRange(minimum, maximum);
    const int sliderMaximum = std::max(minimum, std::min(maximum, m_sliderMaximum));
    m_slider->setRange(positionFor(minimum), positionFor(sliderMaximum));
    m_slider->setPageStep(m_scale == Scale::PowersOfTwo ? kStepsPerDoubling
                                                        : std::max(1, (sliderMaximum - minimum) / 16));
    m_slider->setSingleStep(m_scale == Scale::PowersOfTwo ? kStepsPerDoubling : 1);
    m_slider->setValue(positionFor(m_spin->value()));
}

void SliderSpin::setValue(int value)
{
    if (value == m_spin->value())
        return;
    const QSignalBlocker blockSpin(m_spin), blockSlider(m_slider);
    m_spin->setValue(value);
    m_slider->setValue(positionFor(m_spin->value()));
}

int SliderSpin::positionFor(int value) const
{
    if (m_scale == Scale::Linear)
        return value / m_step;
    return int(std::lround(std::log2(std::max(1, value)) * kStepsPerDoubling));
}

int SliderSpin::valueFor(int position) const
{
    if (m_scale == Scale::Linear)
        return position * m_step;
    // Without Shift the slider snaps to powers of two; with Shift it stops in between.
    const int snapped = fineSteps() ? position
                                    : int(std::lround(double(position) / kStepsPerDoubling)) * kStepsPerDoubling;
    const double exact = std::exp2(double(snapped) / kStepsPerDoubling);
    const int rounded = int(std::lround(exact / m_step)) * m_step;
    return std::clamp(rounded, m_spin->minimum(), m_spin->maximum());
}

void SliderSpin::onSliderMoved(int position)
{
    if (m_updating)
        return;
    m_updating = true;
    const int v = valueFor(position);
    {
        const QSignalBlocker block(m_spin);
        m_spin->setValue(v);
    }
    m_updating = false;
    Q_EMIT valueChanged(m_spin->value());
}

void SliderSpin::onSpinChanged(int value)
{
    if (m_updating)
        return;
    m_updating = true;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(positionFor(value));
    }
    m_updating = false;
    Q_EMIT valueChanged(value);
}

ChoiceSlider::ChoiceSlider(QWidget *parent)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal, this)), m_label(new QLabel(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_label);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setPageStep(1);
    connect(m_slider, &QSlider::valueChanged, this, [this](int i) {
        m_label->setText(m_names.value(i));
        Q_EMIT indexChanged(i);
    });
    setFocusProxy(m_slider);
}

void ChoiceSlider::setChoices(const QStringList &names)
{
    m_names = names;
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, int(names.size()) - 1);
    int widest = 0;
    for (const QString &name : names)
        widest = std::max(widest, m_label->fontMetrics().horizontalAdvance(name));
    m_label->setMinimumWidth(widest + 8);
    m_label->setText(m_names.value(m_slider->value()));
}

void ChoiceSlider::setIndex(int index)
{
    const QSignalBlocker block(m_slider);
    m_slider->setValue(index);
    m_label->setText(m_names.value(index));
}

} // namespace vl
