#pragma once
// A rich-text label of a fixed number of lines whose size never depends on its text. Qt's
// layouts ask a label for its size hint whenever it changes, and for rich text that means
// laying the text out again.

#include <QLabel>

namespace vl {

class RichLabel : public QLabel {
    Q_OBJECT
public:
    explicit RichLabel(QWidget *parent = nullptr);
    void setLines(int lines);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    int m_lines = 1;
};

} // namespace vl
