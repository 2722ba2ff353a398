#include "ui/directplot.h"

namespace vl {

DirectPlot::DirectPlot(const QString &objectName, QWidget *parent) : QCustomPlot(parent)
{
    setObjectName(objectName);
    setBackground(QBrush(palette().color(QPalette::Base)));
    setAttribute(Qt::WA_OpaquePaintEvent); // paintEvent covers every pixel
}

void DirectPlot::paintEvent(QPaintEvent *)
{
    QCPPainter painter(this);
    painter.fillRect(viewport(), mBackgroundBrush);
    draw(&painter); // lays out axes and margins, then draws every layer
}

void DirectPlot::resizeEvent(QResizeEvent *)
{
    setViewport(rect()); // QCustomPlot would replot its paint buffer here
    update();
}

} // namespace vl
