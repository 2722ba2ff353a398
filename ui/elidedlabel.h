#pragma once
// A one-line label that gives way to its layout: a text longer than the label's width ends in
// an ellipsis, the whole text in its tooltip, instead of widening the window around it.

#include <QLabel>

namespace vl {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    void setFullText(const QString &text);
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();
    QString m_full;
};

} // namespace vl
