// Every save is atomic: when the disk is full (here: a file-size limit, which fails the same
// writes), the previous file stays as it was and the error is reported. Qt 6.4's
// QSaveFile::commit() alone reports success and leaves an empty file when its last buffer
// cannot be flushed.

#include "io/atomicfile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

using namespace vl;

class TestAtomicFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fullDiskKeepsThePreviousFile_data()
    {
        QTest::addColumn<int>("bytes");
        QTest::newRow("small: written only when the buffer is flushed") << 1000;
        QTest::newRow("large: written at once") << 100'000;
    }
    void fullDiskKeepsThePreviousFile()
    {
        QFETCH(int, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("team.vramledger.yaml"));
        QVERIFY(writeAtomically(path, "the user's scenario\n").isEmpty());

        // Room for 100 bytes more per file, as on a disk that is nearly full.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit previous{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &previous), 0);
        rlimit tight = previous;
        tight.rlim_cur = 100;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &tight), 0);
        const QString error = writeAtomically(path, QByteArray(bytes, 'x'));
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &previous), 0);

        QVERIFY2(!error.isEmpty(), "a failed save reported success");
        QVERIFY(error.contains(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("the user's scenario\n"));
    }

    void savesWhatItWasGiven()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("custom.yaml"));
        const QByteArray text(50'000, 'g');
        QVERIFY(writeAtomically(path, text).isEmpty());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), text);
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
