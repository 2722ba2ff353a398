#pragma once
// One line per chosen GPU: fits or not, by how much, and the solvers' answers. Painted
// directly (a rich-text label would lay a text document out again on every slider tick),
// each run of text shaped once per painted change (a paint without a change reuses it).
// A line wider than the bar continues on the next row, run by run; a run wider than a whole
// row is elided.

#include "core/analysis.h"

#include "ui/shown.h"
#include <QColor>
#include <QStaticText>

#include <QWidget>

namespace vl {

class VerdictBar : public QWidget {
    Q_OBJECT
public:
    explicit VerdictBar(QWidget *parent = nullptr);
    void showAnalysis(ShownPtr shown);
    QString text() const; // every line, plain, for tests and the clipboard

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }
    int heightForRows(int rows) const; // the bar's height with that many rows in its font

Q_SIGNALS:
    void heightChanged(int height); // its rows changed in number (the text, the width or the font)

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    ShownPtr m_shown = std::make_shared<const Shown>(); // what it draws (ui/shown.h)
    struct Run {
        QString text;
        bool bold = false;
        QColor color; // invalid: the palette's text colour
        QStaticText shaped = {};
        int x = 0; // where the run starts in its row, set by layoutRows()
    };
    using Line = QList<Run>;
    void render();
    void layoutRows();

    QList<Line> m_lines;   // as composed, one per fact
    QList<Line> m_rows;    // as painted: the lines broken to the bar's width
    bool m_shaped = false; // the runs' QStaticText match their text and the font
};

} // namespace vl
