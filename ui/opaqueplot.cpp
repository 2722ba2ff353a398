#include "ui/opaqueplot.h"

namespace vl {

namespace {

// QCustomPlot clears its buffers with Qt::transparent before every replot; this one starts
// from the plot's background instead, so the result is opaque and reaches the screen as a
// plain copy instead of a blend.
class BackgroundBuffer : public QCPPaintBufferPixmap
{
public:
    BackgroundBuffer(const OpaquePlot &plot, const QSize &size, double devicePixelRatio)
        : QCPPaintBufferPixmap(size, devicePixelRatio), m_plot(plot)
    {
        BackgroundBuffer::clear(Qt::transparent);
    }

    void clear(const QColor &) override { QCPPaintBufferPixmap::clear(m_plot.backgroundColor()); }

protected:
    void reallocateBuffer() override
    {
        QCPPaintBufferPixmap::reallocateBuffer();
        clear(Qt::transparent); // never show uninitialised pixels before the first replot
    }

private:
    const OpaquePlot &m_plot;
};

} // namespace

OpaquePlot::OpaquePlot(const QString &objectName, QWidget *parent) : QCustomPlot(parent)
{
    setObjectName(objectName);
    setBackground(QBrush(palette().color(QPalette::Base)));
    // One buffer for all layers: the overlay layer's own buffer only serves selection
    // rectangles, which no view here uses, and it would need a transparent buffer.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    // setupPaintBuffers() keeps the buffers it finds and only creates missing ones.
    mPaintBuffers.clear();
    mPaintBuffers.append(QSharedPointer<QCPAbstractPaintBuffer>(
        new BackgroundBuffer(*this, viewport().size(), devicePixelRatioF())));
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void OpaquePlot::paintEvent(QPaintEvent *)
{
    // The buffer is opaque and covers the whole widget: no background fill underneath.
    QCPPainter painter(this);
    for (const QSharedPointer<QCPAbstractPaintBuffer> &buffer : std::as_const(mPaintBuffers))
        buffer->draw(&painter);
}

} // namespace vl
