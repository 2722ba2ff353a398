#pragma once
// What the chart, the timeline and the sweep draw alike: axes and legend in the palette's
// colours at a zoom, labelled horizontal lines and the capacity lines. QCustomPlot does not follow the
// palette by itself.

#include "core/presets.h"
#include "core/units.h"

#include <QPen>
#include <QString>

#include <vector>

class QCPLayer;
class QCustomPlot;
class QPalette;

namespace vl {

void stylePlot(QCustomPlot *plot, const QPalette &palette, const QFont &font, double zoom);

// A layer under the grid, for filled areas: they can be opaque (see seenOver) and the grid
// still shows across them.
QCPLayer *areaLayer(QCustomPlot *plot);

// The legend as one row above the plot, where it never hides what is plotted.
void addLegendRow(QCustomPlot *plot);
// Wraps that row into as many columns as its widest entry allows across the plot, so that a
// narrow window shows every entry whole; call after the entries or the width change.
void wrapLegendRow(QCustomPlot *plot);

enum class LabelSide { Left, Right };
enum class LabelEdge { Above, Below }; // which side of the line the label sits on
void addHorizontalLine(QCustomPlot *plot, double y, const QPen &pen, const QString &label, LabelSide side,
                       const QFont &font, const QBrush &labelBackground, LabelEdge edge = LabelEdge::Above);

// The chosen GPUs' capacity lines, labelled at the right, the same in every plot: the target
// (the first GPU) solid in capacityColor(), the others dashed in the text colour. Returns the
// highest capacity in `units` (0 without GPUs), for the axis range.
// `tagAt` (the step timeline's peak tag, which stands on that height): a line just above it takes
// its label under the line.
double addCapacityLines(QCustomPlot *plot, const std::vector<GpuPreset> &gpus, Units units, const QPalette &palette,
                        const QFont &font, double zoom, double tagAt = -1);
// Where a tag meant to stand at `tagAt` stands clear of the capacity labels: on the highest line
// within a label's height above it, whose label goes under (addCapacityLines), else at `tagAt`.
double tagClearOfCapacityLines(const std::vector<GpuPreset> &gpus, Units units, double tagAt);

} // namespace vl
