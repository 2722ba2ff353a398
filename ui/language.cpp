#include "ui/language.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace vl {

Language::Language(QObject *parent) : QObject(parent), m_ours(new QTranslator(this)), m_qt(new QTranslator(this))
{
}

QStringList Language::available()
{
    QStringList codes;
    const QStringList files = QDir(QStringLiteral(":/i18n")).entryList({QStringLiteral("vram-ledger_*.qm")});
    for (const QString &file : files)
        codes << file.mid(12, file.size() - 12 - 3);
    codes.removeAll(QStringLiteral("en"));
    codes.prepend(QStringLiteral("en"));
    return codes;
}

void Language::apply(const QString &code)
{
    QCoreApplication::removeTranslator(m_ours);
    QCoreApplication::removeTranslator(m_qt);
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    QLocale::setDefault(locale);
    // English is the source language; its catalogue only holds plural forms ("1 GPU", "8 GPUs").
    if (m_ours->load(locale, QStringLiteral("vram-ledger"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(m_ours);
    if (locale.language() != QLocale::English
        && m_qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(m_qt);
}

} // namespace vl
