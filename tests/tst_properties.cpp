// Properties every estimate must keep, over a grid of very different scenarios.

#include "core/estimate.h"

#include <QTest>

using namespace vl;

namespace {

QList<Scenario> variedScenarios()
{
    QList<Scenario> list;
    for (Precision precision : {Precision::Fp32, Precision::MixedBf16, Precision::Bf16})
        for (Recompute recompute : {Recompute::None, Recompute::Selective, Recompute::Full})
            for (FineTune fineTune : {FineTune::Full, FineTune::LoRA, FineTune::QLoRA, FineTune::Freeze})
                for (int zero : {0, 1, 2, 3}) {
                    Scenario s;
                    s.arch.fixedParams = 0;
                    s.arch.kvHeads = 8;
                    s.precision = precision;
                    s.recompute = recompute;
                    s.fineTune = fineTune;
                    s.zeroStage = zero;
                    s.dataParallel = 8;
                    s.tensorParallel = zero == 3 ? 2 : 1;
                    s.pipelineParallel = zero == 1 ? 2 : 1;
                    s.gradAccum = 4;
                    s.attention = recompute != Recompute::None ? Attention::Flash : Attention::Eager;
                    s.dropout = zero == 2;
                    s.overhead.enabled = fineTune == FineTune::Full;
                    list.append(s);
                }
    return list;
}

void addRows()
{
    QTest::addColumn<int>("index");
    const auto list = variedScenarios();
    for (int i = 0; i < list.size(); ++i) {
        const Scenario &s = list[i];
        const QString name = QStringLiteral("%1 %2 %3 zero%4")
                                 .arg(QString::fromUtf8(toString(s.precision).data()),
                                      QString::fromUtf8(toString(s.recompute).data()),
                                      QString::fromUtf8(toString(s.fineTune).data()))
                                 .arg(s.zeroStage);
        QTest::newRow(qPrintable(name)) << i;
    }
}

} // namespace

class TestProperties : public QObject {
    Q_OBJECT
    QList<Scenario> m_scenarios = variedScenarios();

private Q_SLOTS:
    void componentsNonNegativeAndTotalIsTheirSum_data() { addRows(); }
    void componentsNonNegativeAndTotalIsTheirSum()
    {
        QFETCH(int, index);
        const Scenario &s = m_scenarios[index];
        QVERIFY(!validate(s));
        const Breakdown b = estimate(s);
        Bytes sum = 0;
        for (int c = 0; c < kComponentCount; ++c) {
            QVERIFY(b.componentBytes[c] >= 0);
            sum += b.componentBytes[c];
        }
        QCOMPARE(b.total, sum);
        Bytes items = 0;
        for (Bytes bytes : b.itemBytes) {
            QVERIFY(bytes >= 0);
            items += bytes;
        }
        QCOMPARE(items, b.total);
    }

    void explainMatchesEstimate_data() { addRows(); }
    void explainMatchesEstimate()
    {
        QFETCH(int, index);
        const Scenario &s = m_scenarios[index];
        const Breakdown b = estimate(s);
        Bytes sum = 0;
        for (const ExplainedItem &item : explain(s, Units::GiB)) {
            QCOMPARE(item.bytes, b.item(item.id));
            QVERIFY2(!item.formula.empty(), idString(item.id).data());
            sum += item.bytes;
        }
        QCOMPARE(sum, b.total);
    }

    void moreBatchNeverLessMemory_data() { addRows(); }
    void moreBatchNeverLessMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = 0;
        for (std::int64_t batch = 1; batch <= 64; batch *= 2) {
            s.microBatch = batch;
            const Bytes total = estimate(s).total;
            QVERIFY(total >= previous);
            previous = total;
        }
    }

    void longerSequenceNeverLessMemory_data() { addRows(); }
    void longerSequenceNeverLessMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = 0;
        for (std::int64_t seq = 128; seq <= 32768; seq *= 2) {
            s.sequence = seq;
            const Bytes total = estimate(s).total;
            QVERIFY(total >= previous);
            previous = total;
        }
    }

    void higherZeroStageNeverMoreModelState_data() { addRows(); }
    void higherZeroStageNeverMoreModelState()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        Bytes previous = -1;
        for (int stage = 0; stage <= 3; ++stage) {
            s.zeroStage = stage;
            if (s.offload != Offload::None && stage == 0)
                continue;
            const Breakdown b = estimate(s);
            const Bytes states = b.modelStates() - b.item(ItemId::Zero3GatheredParams);
            if (previous >= 0)
                QVERIFY(states <= previous);
            previous = states;
        }
    }

    void recomputationNeverAddsMemory_data() { addRows(); }
    void recomputationNeverAddsMemory()
    {
        QFETCH(int, index);
        Scenario s = m_scenarios[index];
        s.recompute = Recompute::None;
        const Bytes none = estimate(s).component(Component::Activations);
        s.recompute = Recompute::Selective;
        const Bytes selective = estimate(s).component(Component::Activations);
        s.recompute = Recompute::Full;
        const Bytes full = estimate(s).component(Component::Activations);
        // Full is not always below selective: it still needs one whole layer (s² scores and
        // all) while that layer is recomputed, which can outweigh a few selective layers.
        QVERIFY(selective <= none);
        QVERIFY(full <= none);
    }
};

QTEST_APPLESS_MAIN(TestProperties)
#include "tst_properties.moc"
