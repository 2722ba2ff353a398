#pragma once
// The chart page: what to compare (pins, GPU counts, ZeRO stages, the optimization ladder),
// pinning, the fit rule and units above the stacked bar chart.

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace vl {

class LedgerModel;
class MemoryChart;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(LedgerModel &model, QWidget *parent = nullptr);
    MemoryChart *chart() const { return m_chart; }
    void pinCurrent();      // asks for a name
    void editLadderOrder(); // which of the article's levers to try, in which order

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void showPinMenu(const QPoint &position);

    LedgerModel &m_model;
    MemoryChart *m_chart;
    QComboBox *m_bars;
    QComboBox *m_fitRule;
    QComboBox *m_units;
    QPushButton *m_pin;
    QPushButton *m_ladderOrder;
    QLabel *m_barsLabel;
    QLabel *m_fitLabel;
};

} // namespace vl
