#pragma once
// Writes a view to PNG (at a scale factor, for crisp slides), SVG or PDF (vector), chosen
// by the file's suffix. Plots go through QCustomPlot's own export; painted widgets render.

#include <QList>
#include <QString>

#include <functional>

class QCustomPlot;
class QImage;
class QWidget;

namespace vl {

// Returns an empty string on success, else what went wrong (naming the file).
QString exportWidget(QWidget *widget, const QString &path, double scale = 1.0);

// The widget as an image, e.g. for the clipboard.
QImage renderImage(QWidget *widget, double scale = 1.0);

// Several views in one file: a PDF page each, or one PNG or SVG with the views one below the
// other. `prepare` runs before each view is drawn (e.g. to bring its tab forward).
QString exportWidgets(const QList<QWidget *> &widgets, const std::function<void(QWidget *)> &prepare,
                      const QString &path, double scale = 1.0);

} // namespace vl
