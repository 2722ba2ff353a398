#pragma once
// One GPU's memory as the article explains it: four blocks whose areas are proportional to
// their bytes, their items inside, the flow of a training step between them, and what each
// lever does (ZeRO slices, recomputed activations as outlines, the 16-bit copy beside the
// FP32 master). Painted from the same Analysis as the chart.

#include "core/analysis.h"

#include "ui/shown.h"
#include "ui/theme.h"

#include <QWidget>

#include <array>
#include <cmath>
#include <optional>

namespace vl {

// Where each component's block goes inside `area`: pure geometry, tested against the bytes.
struct DiagramLayout {
    std::array<QRectF, kComponentCount> blocks{}; // empty rect: the component is absent
    double bytesPerSquarePixel = 0;
    double baseline = 0; // the blocks stand on it, in the order of a training step
    double cellWidth = 0;
    double aspect = 1.0; // every block's height ÷ width: taller than square where the height allows
    // ZeRO-Offload's CPU memory, dashed where the optimizer states would stand (they are all in
    // it): at the same scale, capped to the cell (`hostToScale` false then). Empty: none.
    QRectF host;
    bool hostToScale = true;

    // The width of a block of `bytes` at this scale and shape.
    double side(Bytes bytes) const { return std::sqrt(double(bytes) / bytesPerSquarePixel / aspect); }
};
DiagramLayout layoutDiagram(const QRectF &area, const Breakdown &b);

// Where labels beside a block go: each as near its slice's centre (`wanted`, top to bottom) as
// it can be, none closer than a line to the next, the lowest no lower than `bottom` allows.
QList<double> stackLabels(const QList<double> &wanted, double lineHeight, double bottom);

// A block's title in `width`: its name and size on one line, else on two, the name broken at
// its words where even it is wider than the cell ("Optimizer states" in a narrow window).
QString captionTitle(const QFont &font, const QString &name, const QString &size, double width);

class StructureDiagram : public QWidget {
    Q_OBJECT
public:
    explicit StructureDiagram(QWidget *parent = nullptr);
    void showAnalysis(ShownPtr shown);
    void highlight(std::optional<Component> component);
    void setZoom(double zoom);
    DiagramLayout currentLayout() const;
    // A moment of the step (a point of the analysis' timeline): each block shows the part of it
    // alive then, the rest as an outline. nullopt: the whole step at once.
    void showMoment(std::optional<int> point);
    std::optional<int> moment() const { return m_moment; }

    QSize sizeHint() const override { return {720, 480}; }

Q_SIGNALS:
    void componentHovered(std::optional<Component> component);
    void playRequested();          // Space: play or pause the step
    void stepRequested(int delta); // the arrow keys: a point back or on

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    ShownPtr m_shown = std::make_shared<const Shown>(); // what it draws (ui/shown.h)
    FormulaLocalizer m_formulas;                        // its items' formulas in the current language
    QRectF diagramArea() const;
    // Each returns where its caption's text ends, so that the loop closing the step runs under them all.
    double paintBlock(QPainter &p, Component c, const DiagramLayout &layout) const;
    double paintHostMemory(QPainter &p, const DiagramLayout &layout) const;
    void paintFlow(QPainter &p, const DiagramLayout &layout) const;
    void paintLoop(QPainter &p, const DiagramLayout &layout, double captionsBottom) const;
    QString hostTip() const; // what lives in CPU memory, item by item, with formulas
    // A cell's bold name and size under its block (from `top`), then its notes: shrunk a little,
    // then elided, to fit above the loop. Returns the bottom of the text drawn.
    double paintCaption(QPainter &p, const DiagramLayout &layout, double cellLeft, double top, const QString &name,
                        const QString &size, const QStringList &notes, bool dim) const;
    std::optional<Component> m_highlighted;
    double m_zoom = 1.0;
    std::optional<int> m_moment;
};

} // namespace vl
