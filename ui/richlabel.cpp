#include "ui/richlabel.h"

#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace vl {

RichLabel::RichLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setMargin(4);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_measure.setDocumentMargin(0); // as QLabel lays out its text
    m_measure.setDefaultFont(font());
    setLines(1);
}

void RichLabel::setLines(int lines)
{
    m_lines = lines;
    fitHeight();
}

void RichLabel::showText(const QString &text)
{
    if (text == this->text())
        return;
    setText(text);
    m_measure.setHtml(text);
    fitHeight();
}

// The height is fitted here, not asked for by the layout.
bool RichLabel::hasHeightForWidth() const
{
    return false;
}

QSize RichLabel::sizeHint() const
{
    return {100, height()};
}

QSize RichLabel::minimumSizeHint() const
{
    return sizeHint();
}

void RichLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fitHeight();
}

void RichLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_measure.setDefaultFont(font());
        fitHeight();
    }
}

// Measured apart from the label: QLabel's own heightForWidth() is never less than the height
// it was last fixed to.
void RichLabel::fitHeight()
{
    m_measure.setTextWidth(std::max(0, contentsRect().width() - 2 * margin()));
    const int frame = height() - contentsRect().height();
    const int textHeight = int(std::ceil(m_measure.size().height())) + 2 * margin() + frame;
    const int wanted = std::max(m_lines * fontMetrics().lineSpacing() + 2 * margin() + 4, textHeight);
    if (wanted != height())
        setFixedHeight(wanted);
}

} // namespace vl
