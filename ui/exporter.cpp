#include "ui/exporter.h"

#include "io/atomicfile.h"

#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <qcustomplot.h>

namespace vl {

namespace {

// A plot inside the widget (the chart and the timeline are one plot each), or nullptr.
QCustomPlot *plotOf(QWidget *widget)
{
    if (auto *plot = qobject_cast<QCustomPlot *>(widget))
        return plot;
    const auto plots = widget->findChildren<QCustomPlot *>();
    return plots.size() == 1 && plots.front()->size() == widget->size() ? plots.front() : nullptr;
}

// Paints the widget and its children; plots are drawn as vectors (QWidget::render would
// paste their cached bitmap).
void paintWidget(QWidget *widget, QPainter &painter, QPoint offset = {})
{
    if (auto *plot = qobject_cast<QCustomPlot *>(widget)) {
        // The device already has its painter: record the plot as a picture and replay it.
        QPicture picture;
        {
            QCPPainter plotPainter(&picture);
            plotPainter.setMode(QCPPainter::pmVectorized);
            plotPainter.setMode(QCPPainter::pmNoCaching);
            plot->toPainter(&plotPainter, plot->width(), plot->height());
        }
        painter.drawPicture(offset, picture);
        return;
    }
    widget->render(&painter, offset, QRegion(), QWidget::DrawWindowBackground);
    for (QObject *child : widget->children()) {
        auto *w = qobject_cast<QWidget *>(child);
        if (w && w->isVisibleTo(widget) && !w->isWindow())
            paintWidget(w, painter, offset + w->pos());
    }
}

// A widget never shown (headless export) has not been laid out yet: lay it out now.
void layOut(QWidget *widget)
{
    widget->ensurePolished();
    if (QLayout *layout = widget->layout())
        layout->activate();
}

} // namespace

QImage renderImage(QWidget *widget, double scale)
{
    layOut(widget);
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
    layOut(widget);
    const QSize size = widget->size();
    QSaveFile file(path); // the previous file survives a failed export
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot be written (%2)").arg(path, file.errorString());

    if (suffix == QLatin1String("png")) {
        QCustomPlot *plot = plotOf(widget);
        const QImage image = plot ? plot->toPixmap(size.width(), size.height(), scale).toImage()
                                  : renderImage(widget, scale);
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
    return commitChecked(file, path);
}

QString exportWidgets(const QList<QWidget *> &widgets, const std::function<void(QWidget *)> &prepare,
                      const QString &path, double scale)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
        return QObject::tr("%1: unknown format '%2'; use .png, .svg or .pdf").arg(path, suffix);
    // Each view drawn while it is the one shown: as pixels for a PNG, as vectors otherwise.
    QList<QImage> images;
    QList<QPicture> pictures;
    QList<QSize> sizes;
    for (QWidget *widget : widgets) {
        prepare(widget);
        layOut(widget);
        sizes << widget->size();
        if (suffix == QLatin1String("png")) {
            QCustomPlot *plot = plotOf(widget);
            images << (plot ? plot->toPixmap(widget->width(), widget->height(), scale).toImage()
                            : renderImage(widget, scale));
            continue;
        }
        QPicture picture;
        QPainter painter(&picture);
        paintWidget(widget, painter);
        painter.end();
        pictures << picture;
    }
    QSize stacked(0, 0); // a default QSize is invalid (-1 × -1)
    for (const QSize &size : sizes)
        stacked = QSize(std::max(stacked.width(), size.width()), stacked.height() + size.height());

    QSaveFile file(path); // the previous file survives a failed export
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot be written (%2)").arg(path, file.errorString());
    if (suffix == QLatin1String("png")) {
        QImage all(stacked * scale, QImage::Format_ARGB32);
        all.setDevicePixelRatio(scale);
        all.fill(widgets.isEmpty() ? QColor(Qt::white) : widgets.front()->palette().color(QPalette::Window));
        QPainter painter(&all);
        int y = 0;
        for (qsizetype i = 0; i < images.size(); ++i) { // in view coordinates, whatever each image's pixel ratio
            painter.drawImage(QRect(QPoint(0, y), sizes[i]), images[i]);
            y += sizes[i].height();
        }
        painter.end();
        if (!all.save(&file, "PNG"))
            return QObject::tr("%1: the PNG could not be encoded").arg(path);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(stacked);
        svg.setViewBox(QRect(QPoint(0, 0), stacked));
        svg.setTitle(QStringLiteral("VRAM Ledger"));
        QPainter painter(&svg);
        int y = 0;
        for (qsizetype i = 0; i < pictures.size(); ++i) {
            painter.drawPicture(QPoint(0, y), pictures[i]);
            y += sizes[i].height();
        }
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle(QStringLiteral("VRAM Ledger"));
        pdf.setCreator(QStringLiteral("VRAM Ledger"));
        pdf.setResolution(96);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(sizes.value(0, QSize(800, 600))), QPageSize::Point));
        QPainter painter(&pdf);
        for (qsizetype i = 0; i < pictures.size(); ++i) {
            if (i > 0) {
                pdf.setPageSize(QPageSize(QSizeF(sizes[i]), QPageSize::Point));
                pdf.newPage();
            }
            painter.save();
            painter.scale(double(pdf.width()) / sizes[i].width(), double(pdf.height()) / sizes[i].height());
            painter.drawPicture(QPoint(0, 0), pictures[i]);
            painter.restore();
        }
    }
    return commitChecked(file, path);
}

} // namespace vl
