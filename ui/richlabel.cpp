#include "ui/richlabel.h"

namespace vl {

RichLabel::RichLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(false);
    setMargin(4);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setLines(1);
}

void RichLabel::setLines(int lines)
{
    m_lines = lines;
    setFixedHeight(sizeHint().height());
}

QSize RichLabel::sizeHint() const
{
    return {100, m_lines * fontMetrics().lineSpacing() + 2 * margin() + 4};
}

QSize RichLabel::minimumSizeHint() const
{
    return sizeHint();
}

} // namespace vl
