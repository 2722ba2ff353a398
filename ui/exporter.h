#pragma once
// Writes a view to PNG (at a scale factor, for crisp slides), SVG or PDF (vector), chosen
// by the file's suffix. Plots go through QCustomPlot's own export; painted widgets render.

#include <QString>

class QCustomPlot;
class QImage;
class QWidget;

namespace vl {

// Returns an empty string on success, else what went wrong (naming the file).
QString exportWidget(QWidget *widget, const QString &path, double scale = 1.0);

// The widget as an image, e.g. for the clipboard.
QImage renderImage(QWidget *widget, double scale = 1.0);

} // namespace vl
