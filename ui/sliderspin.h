#pragma once
// A slider with a linked spin box. On a logarithmic scale the slider and the spin box's
// arrows move in powers of two; with Shift held they move in fine steps.

#include <QWidget>

class QLabel;
class QSlider;
class QSpinBox;

namespace vl {

class SliderSpin : public QWidget {
    Q_OBJECT
public:
    enum class Scale { Linear, PowersOfTwo };
    SliderSpin(Scale scale, int minimum, int maximum, int step, const QString &suffix, QWidget *parent = nullptr);

    int value() const;
    void setValue(int value); // no valueChanged() for a value set from outside
    void setRange(int minimum, int maximum);
    QSlider *slider() const { return m_slider; }
    QSpinBox *spinBox() const { return m_spin; }

Q_SIGNALS:
    void valueChanged(int value);

private:
    int positionFor(int value) const;
    int valueFor(int position) const;
    void onSliderMoved(int position);
    void onSpinChanged(int value);

    Scale m_scale;
    int m_step;
    int m_sliderMaximum; // the slider's span ends here even where the range goes further
    QSlider *m_slider;
    QSpinBox *m_spin;
    bool m_updating = false;
};

// A slider over a few named choices, such as the four precisions, with the current name beside it.
class ChoiceSlider : public QWidget {
    Q_OBJECT
public:
    explicit ChoiceSlider(QWidget *parent = nullptr);
    void setChoices(const QStringList &names);
    void setIndex(int index); // silent
    QSlider *slider() const { return m_slider; }

Q_SIGNALS:
    void indexChanged(int index);

private:
    QStringList m_names;
    QSlider *m_slider;
    QLabel *m_label;
};

} // namespace vl
