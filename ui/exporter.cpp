#include "ui/exporter.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <qcustomplot.h>

namespace vl::ui {

namespace {

// A plot inside the widget (the chart and the timeline are one plot each), or nullptr.
QCustomPlot *plotOf(QWidget *widget)
{
    if (auto *plot = qobject_cast<QCustomPlot *>(widget))
        return plot;
    const auto plots = widget->findChildren<QCustomPlot *>();
    return plots.size() == 1 && plots.front()->size() == widget->size() ? plots.front() : nullptr;
}

// Paints the widget; plots inside it are drawn as vectors (QWidget::render would paste their bitmap).
void paintWidget(QWidget *widget, QPainter &painter)
{
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>()) {
        if (!plot->isVisibleTo(widget))
            continue;
        painter.save();
        painter.translate(plot->mapTo(widget, QPoint(0, 0)));
        QCPPainter plotPainter(painter.device());
        plotPainter.setTransform(painter.transform());
        plotPainter.setMode(QCPPainter::pmVectorized);
        plotPainter.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&plotPainter, plot->width(), plot->height());
        painter.restore();
    }
}

} // namespace

QImage renderImage(QWidget *widget, double scale)
{
    QImage image(widget->size() * scale, QImage::Format_ARGB32);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paintWidget(widget, painter);
    return image;
}

QString exportWidget(QWidget *widget, const QString &path, double scale)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = widget->size();
    QSaveFile file(path); // the previous file survives a failed export
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot be written (%2)").arg(path, file.errorString());

    if (suffix == QLatin1String("png")) {
        QCustomPlot *plot = plotOf(widget);
        const QImage image = plot ? plot->toPixmap(size.width(), size.height(), scale).toImage() : renderImage(widget, scale);
        if (!image.save(&file, "PNG"))
            return QObject::tr("%1: the PNG could not be encoded").arg(path);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("VRAM Ledger"));
        QPainter painter(&svg);
        paintWidget(widget, painter);
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(&file);
        pdf.setTitle(QStringLiteral("VRAM Ledger"));
        pdf.setCreator(QStringLiteral("VRAM Ledger"));
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter(&pdf);
        painter.scale(double(pdf.width()) / size.width(), double(pdf.height()) / size.height());
        paintWidget(widget, painter);
    } else {
        file.cancelWriting();
        return QObject::tr("%1: unknown format '%2'; use .png, .svg or .pdf").arg(path, suffix);
    }
    if (!file.commit())
        return QObject::tr("%1: cannot be written (%2)").arg(path, file.errorString());
    return {};
}

} // namespace vl::ui
