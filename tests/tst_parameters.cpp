// Parameter counts derived from architectures, pinned to the totals their authors publish.

#include "core/architecture.h"
#include "core/presets.h"
#include "core/scenariofile.h"

#include <QTest>

#include <cmath>

using namespace vl;

class TestParameters : public QObject {
    Q_OBJECT
private:
    PresetCatalog m_catalog = loadCatalog(VL_SOURCE_PRESETS, {});

private Q_SLOTS:
    void builtInPresetsLoadCleanly()
    {
        for (const Error &e : m_catalog.skipped)
            qWarning("%s", e.describe().c_str());
        QVERIFY(m_catalog.skipped.empty());
        QVERIFY(m_catalog.models.size() >= 17);
    }

    void exactPublishedCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("published");
        // memory-model.md: GPT-2 124,439,808; Llama-2-7B 6,738,415,616; Llama-3-8B 8,030,261,248.
        QTest::newRow("GPT-2 124M") << QStringLiteral("gpt2") << qint64(124'439'808);
        QTest::newRow("Llama-2 7B") << QStringLiteral("llama-2-7b") << qint64(6'738'415'616);
        QTest::newRow("Llama-3.1 8B (GQA, untied, 128k vocab)")
            << QStringLiteral("llama-3.1-8b") << qint64(8'030'261'248);
        // The Hub's safetensors count of meta-llama/Llama-3.2-1B, which stores the tied embedding once.
        QTest::newRow("Llama-3.2 1B (tied embeddings)") << QStringLiteral("llama-3.2-1b") << qint64(1'235'814'400);
        QTest::newRow("the article's 7B, given directly") << QStringLiteral("seed-7b") << qint64(7'000'000'000);
        // The Hub's safetensors counts of their BF16 checkpoints: Qwen3's query/key norms, a head_dim
        // other than hidden / heads, 128 experts a layer, fewer key/value heads than a power of two.
        QTest::newRow("Qwen3 14B (query/key norms)") << QStringLiteral("qwen3-14b") << qint64(14'768'307'200);
        QTest::newRow("Qwen3 32B (64 heads of 128 over a 5120 stream)")
            << QStringLiteral("qwen3-32b") << qint64(32'762'123'264);
        QTest::newRow("Qwen3 235B-A22B (128 experts in each of 94 layers)")
            << QStringLiteral("qwen3-235b-a22b") << qint64(235'093'634'560);
        QTest::newRow("Phi-4 (10 key/value heads of 40)") << QStringLiteral("phi-4") << qint64(14'659'507'200);
        QTest::newRow("Mistral Small 24B (32 heads of 128 under a 5120 stream)")
            << QStringLiteral("mistral-small-24b") << qint64(23'572'403'200);
    }
    void exactPublishedCounts()
    {
        QFETCH(QString, id);
        QFETCH(qint64, published);
        const ModelPreset *model = m_catalog.findModel(id.toStdString());
        QVERIFY2(model, qPrintable(id));
        QCOMPARE(totalParameters(model->arch), published);
    }

    // Every preset against the total its YAML states. Rounded figures ("7.62B") are within half
    // a unit of their third significant digit: under 0.07 %, so 0.1 % still tells a wrong shape.
    void everyPresetMatchesItsPublishedTotal_data()
    {
        QTest::addColumn<QString>("id");
        for (const ModelPreset &m : m_catalog.models)
            QTest::newRow(m.id.c_str()) << QString::fromStdString(m.id);
    }
    void everyPresetMatchesItsPublishedTotal()
    {
        QFETCH(QString, id);
        const ModelPreset *m = m_catalog.findModel(id.toStdString());
        QVERIFY(m);
        QVERIFY2(m->publishedParams > 0, "every preset states its published total");
        QVERIFY2(!m->source.empty(), "every preset names its source");
        const double derived = static_cast<double>(totalParameters(m->arch));
        const double relative = std::fabs(derived - static_cast<double>(m->publishedParams))
            / static_cast<double>(m->publishedParams);
        QVERIFY2(relative < 1e-3,
                 qPrintable(QStringLiteral("%1: derived %2 vs published %3")
                                .arg(id)
                                .arg(derived, 0, 'f', 0)
                                .arg(m->publishedParams)));
    }

    // The active parameters as the models' authors state them: within one unit of the last digit
    // they give (Mistral rounds, Qwen truncates: 3.35B is its "3.3B").
    void moeActiveParameters_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("activeBillions");
        QTest::addColumn<int>("decimals");
        QTest::newRow("Mixtral 8x7B: 12.88B active, two of eight experts a token") << "mixtral-8x7b" << 12.88 << 2;
        QTest::newRow("Qwen3-30B-A3B: 3.3B activated, eight of 128 experts a token") << "qwen3-30b-a3b" << 3.3 << 1;
        QTest::newRow("Qwen3-235B-A22B: 22B activated, eight of 128 experts a token") << "qwen3-235b-a22b" << 22.0 << 0;
    }
    void moeActiveParameters()
    {
        QFETCH(QString, id);
        QFETCH(double, activeBillions);
        QFETCH(int, decimals);
        const ModelPreset *m = m_catalog.findModel(id.toStdString());
        QVERIFY(m);
        const double active = static_cast<double>(activeParameters(m->arch)) / 1e9;
        QVERIFY2(std::fabs(active - activeBillions) < std::pow(10.0, -decimals),
                 qPrintable(QStringLiteral("%1B active").arg(active, 0, 'f', 4)));
    }

    void hiddenStepKeepsHeadsDividing_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("atLeast");
        QTest::addColumn<int>("step");
        QTest::newRow("Llama: 32 heads, 64") << 32 << 64 << 64;
        QTest::newRow("GPT-2: 12 heads, 64") << 12 << 64 << 60;
        QTest::newRow("GPT-2 XL: 25 heads, 64") << 25 << 64 << 50;
        QTest::newRow("more heads than the step") << 128 << 64 << 128;
    }
    void hiddenStepKeepsHeadsDividing()
    {
        QFETCH(int, heads);
        QFETCH(int, atLeast);
        QFETCH(int, step);
        QCOMPARE(hiddenStep(heads, atLeast), std::int64_t(step));
        QCOMPARE(hiddenStep(heads, atLeast) % heads, std::int64_t(0));
        // The largest offered size is whole steps, within the limit.
        const std::int64_t largest = largestHidden(step);
        QCOMPARE(largest % step, std::int64_t(0));
        QVERIFY(largest <= kLargestHidden && largest + step > kLargestHidden);
    }

    void hiddenRoundsUpToWholeHeads_data()
    {
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<int>("expected");
        QTest::newRow("already divides: kept") << 4096 << 32 << 0 << 4096;
        QTest::newRow("typed between steps: next multiple up") << 4100 << 32 << 0 << 4128;
        QTest::newRow("GPT-2's 12 heads") << 770 << 12 << 0 << 780;
        QTest::newRow("fixed head_dim: hidden kept") << 3584 << 28 << 128 << 3584;
        QTest::newRow("fixed head_dim, not divisible: kept") << 4100 << 32 << 128 << 4100;
    }
    void hiddenRoundsUpToWholeHeads()
    {
        QFETCH(int, hidden);
        QFETCH(int, heads);
        QFETCH(int, headDim);
        QFETCH(int, expected);
        Architecture a;
        a.hidden = hidden;
        a.heads = heads;
        a.headDim = headDim;
        QCOMPARE(headsDividingHidden(a), std::int64_t(expected));
    }

    void fixedCountKeepsEmbeddingsReal()
    {
        Architecture a = articleExampleDocument().scenario.arch; // the article's 7B, its count given
        const ParameterCounts c = countParameters(a);
        QCOMPARE(c.total(a.layers), qint64(7'000'000'000));
        QCOMPARE(c.embedding, a.vocab * a.hidden);
        QCOMPARE(c.head, a.vocab * a.hidden);
    }
};

QTEST_APPLESS_MAIN(TestParameters)
#include "tst_parameters.moc"
