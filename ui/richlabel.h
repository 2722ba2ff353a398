#pragma once
// A rich-text label that wraps at its width and is as tall as its wrapped text, never shorter
// than a set number of lines. Its height is fitted when its text or width changes, and only a
// change in the number of lines reaches the layout: a layout otherwise asks a word-wrapped label
// its height for a width each time its text changes, laying the text out again.

#include <QLabel>
#include <QTextDocument>

namespace vl {

class RichLabel : public QLabel {
    Q_OBJECT
public:
    explicit RichLabel(QWidget *parent = nullptr);
    void setLines(int lines); // the fewest lines it is tall, so that one more lever moves nothing
    void showText(const QString &text);
    bool hasHeightForWidth() const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void fitHeight();
    int m_lines = 1;
    QTextDocument m_measure;
};

} // namespace vl
