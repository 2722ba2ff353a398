// Exports open correctly: PNG of the right size with content, SVG that parses, PDF with
// vector content; a failed export leaves the previous file alone.

#include "core/analysis.h"
#include "ui/exporter.h"
#include "ui/memorychart.h"
#include "ui/structurediagram.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace vl;

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    ShownPtr m_shown = shownFor(articleExampleDocument());

    std::unique_ptr<QWidget> makeView(const QString &kind)
    {
        if (kind == QLatin1String("chart")) {
            auto chart = std::make_unique<MemoryChart>();
            chart->showAnalysis(m_shown);
            chart->resize(800, 500);
            return chart;
        }
        auto diagram = std::make_unique<StructureDiagram>();
        diagram->showAnalysis(m_shown);
        diagram->resize(800, 500);
        return diagram;
    }

private Q_SLOTS:
    void png_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("scale");
        QTest::newRow("chart at 1×") << "chart" << 1.0;
        QTest::newRow("chart at 2× for slides") << "chart" << 2.0;
        QTest::newRow("diagram at 2×") << "diagram" << 2.0;
    }
    void png()
    {
        QFETCH(QString, kind);
        QFETCH(double, scale);
        auto view = makeView(kind);
        const QString path = m_dir.filePath(kind + QString::number(scale) + QStringLiteral(".png"));
        QCOMPARE(exportWidget(view.get(), path, scale), QString());
        const QImage image(path);
        QCOMPARE(image.size(), QSize(int(800 * scale), int(500 * scale)));
        // Content: the parameters' blue is somewhere in the picture.
        bool found = false;
        for (int y = 0; y < image.height() && !found; y += 3)
            for (int x = 0; x < image.width() && !found; x += 3)
                found = image.pixelColor(x, y) == QColor(0x00, 0x72, 0xB2);
        QVERIFY(found);
    }

    void vector_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("chart") << "chart";
        QTest::newRow("diagram") << "diagram";
    }
    void vector()
    {
        QFETCH(QString, kind);
        auto view = makeView(kind);
        const QString svgPath = m_dir.filePath(kind + QStringLiteral(".svg"));
        QCOMPARE(exportWidget(view.get(), svgPath), QString());
        QSvgRenderer svg(svgPath);
        QVERIFY(svg.isValid());
        QFile svgFile(svgPath);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("<path") || svgText.contains("<rect"));
        QVERIFY2(!svgText.contains("<image"), "the plot must be vector, not an embedded bitmap");

        const QString pdfPath = m_dir.filePath(kind + QStringLiteral(".pdf"));
        QCOMPARE(exportWidget(view.get(), pdfPath), QString());
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.size() > 2000);
        QVERIFY2(!bytes.contains("/Subtype /Image"), "vector content, not a pasted bitmap");
    }

    // Several views in one file: one below the other in a PNG, a page each in a PDF, each drawn
    // after `prepare` has brought it forward.
    void severalViews()
    {
        QWidget first, second;
        first.resize(200, 100);
        second.resize(300, 50);
        first.setAutoFillBackground(true);
        second.setAutoFillBackground(true);
        QTemporaryDir dir;
        QList<QWidget *> prepared;
        const auto prepare = [&](QWidget *w) { prepared << w; };
        const QString png = dir.filePath(QStringLiteral("all.png"));
        QVERIFY(exportWidgets({&first, &second}, prepare, png, 2.0).isEmpty());
        QCOMPARE(prepared, (QList<QWidget *>{&first, &second}));
        // The widest view by both heights, at scale 2.
        const QSize stacked(std::max(first.width(), second.width()), first.height() + second.height());
        QCOMPARE(QImage(png).size(), stacked * 2);
        const QString pdf = dir.filePath(QStringLiteral("all.pdf"));
        QVERIFY(exportWidgets({&first, &second}, prepare, pdf).isEmpty());
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromLatin1(file.readAll());
        qsizetype pages = 0;
        for (auto it = QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]")).globalMatch(text); it.hasNext();
             it.next())
            ++pages;
        QCOMPARE(pages, 2);
    }

    void unknownFormatKeepsTheOldFile()
    {
        auto view = makeView(QStringLiteral("chart"));
        const QString path = m_dir.filePath(QStringLiteral("keep.bmp"));
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("previous");
        old.close();
        QVERIFY(exportWidget(view.get(), path).contains(QStringLiteral("unknown format")));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("previous"));
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
