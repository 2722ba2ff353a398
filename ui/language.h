#pragma once
// The interface language, switchable at run time: our own strings (embedded .qm files) and
// Qt's own dialogs. "" follows the system locale.

#include <QObject>
#include <QStringList>

class QTranslator;

namespace vl {

class Language : public QObject {
    Q_OBJECT
public:
    explicit Language(QObject *parent = nullptr);
    // Installs the translators for `code` ("en", "zh_CN", or "" for the system locale).
    void apply(const QString &code);
    static QStringList available(); // codes with a translation, "en" first

private:
    QTranslator *m_ours;
    QTranslator *m_qt;
};

} // namespace vl
