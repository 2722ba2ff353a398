// The solvers' answers are exact: the answer fits and one more does not.

#include "core/estimate.h"
#include "core/solve.h"

#include "core/fields.h"

#include <QTest>

#include <algorithm>

using namespace vl;

Q_DECLARE_METATYPE(FitRule)

namespace {

Scenario llama8b()
{
    Scenario s;
    s.arch.kvHeads = 8;
    s.arch.ffn = 14336;
    s.arch.vocab = 128256;
    s.precision = Precision::MixedBf16;
    s.attention = Attention::Flash;
    s.sequence = 2048;
    return s;
}

bool fits(const Scenario &s, Bytes capacity, FitRule rule = kDefaultFitRule)
{
    return !scenarioError(s) && requiredBytes(estimate(s), rule) <= capacity;
}

} // namespace

class TestSolvers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void solvers_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<qint64>("capacityMiB");
        QTest::addColumn<int>("fsdpReplicas"); // 0: DeepSpeed's ZeRO; else FSDP with this many replica groups
        QTest::newRow("8B, ZeRO-3 over 8, H100") << 3 << 8 << int(Recompute::None) << qint64(81559) << 0;
        QTest::newRow("8B, ZeRO-2 over 8, full recompute, A100")
            << 2 << 8 << int(Recompute::Full) << qint64(81920) << 0;
        QTest::newRow("8B, ZeRO-3 over 64, RTX 4090") << 3 << 64 << int(Recompute::Selective) << qint64(24564) << 0;
        QTest::newRow("8B, no sharding, H200") << 0 << 1 << int(Recompute::Full) << qint64(143771) << 0;
        QTest::newRow("8B, FSDP over 64, RTX 4090") << 3 << 64 << int(Recompute::Full) << qint64(24564) << 1;
        QTest::newRow("8B, HSDP in 4 groups, RTX 4090: whole groups")
            << 3 << 64 << int(Recompute::Full) << qint64(24564) << 4;
    }
    void solvers()
    {
        QFETCH(int, zero);
        QFETCH(int, dp);
        QFETCH(int, recompute);
        QFETCH(qint64, capacityMiB);
        QFETCH(int, fsdpReplicas);
        Scenario s = llama8b();
        s.zeroStage = zero;
        s.dataParallel = dp;
        if (fsdpReplicas > 0) {
            s.sharding = Sharding::Fsdp;
            s.replicas = fsdpReplicas;
        }
        const int step = std::max(fsdpReplicas, 1); // the GPUs come in whole replica groups
        s.recompute = static_cast<Recompute>(recompute);
        const Bytes capacity = capacityMiB * kMiB;

        const std::int64_t batch = maxMicroBatch(s, capacity);
        Scenario at = s;
        if (batch > 0) {
            at.microBatch = batch;
            QVERIFY(fits(at, capacity));
        }
        at.microBatch = batch + 1;
        QVERIFY(!fits(at, capacity));

        const std::int64_t seq = maxSequence(s, capacity);
        at = s;
        if (seq > 0) {
            at.sequence = seq;
            QVERIFY(fits(at, capacity));
        }
        at.sequence = seq + 1;
        QVERIFY(!fits(at, capacity));

        const std::int64_t ranks = minDataParallel(s, capacity);
        if (ranks > 0) {
            at = s;
            at.dataParallel = ranks;
            QCOMPARE(ranks % step, 0);
            QVERIFY(fits(at, capacity));
            if (ranks > step) {
                at.dataParallel = ranks - step;
                QVERIFY(!fits(at, capacity));
            }
        } else {
            QCOMPARE(zero, 0); // only unsharded runs can be beyond any GPU count
        }
    }

    // The longest sequence comes in whole slices: context parallelism's, and sequence
    // parallelism's over the tensor-parallel GPUs (the scenario rule refuses anything else).
    void maxSequenceInWholeSlices_data()
    {
        QTest::addColumn<int>("cp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("slice");
        QTest::newRow("context parallel 2") << 2 << 1 << false << 2;
        QTest::newRow("TP 4 with sequence parallelism") << 1 << 4 << true << 4;
        QTest::newRow("TP 4 without: any length") << 1 << 4 << false << 1;
        QTest::newRow("CP 3 and TP 4 with sequence parallelism: multiples of 12") << 3 << 4 << true << 12;
    }
    void maxSequenceInWholeSlices()
    {
        QFETCH(int, cp);
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, slice);
        Scenario s = llama8b();
        s.contextParallel = cp;
        s.tensorParallel = tp;
        s.sequenceParallel = sp;
        s.zeroStage = 3; // the model states over 8 GPUs, so that some sequence fits
        s.dataParallel = 8;
        const Bytes capacity = 40 * kGiB;
        const std::int64_t seq = maxSequence(s, capacity);
        QVERIFY(seq > 0);
        QCOMPARE(seq % slice, 0);
        Scenario at = s;
        at.sequence = seq;
        QVERIFY(!scenarioError(at));
        QVERIFY(fits(at, capacity));
        at.sequence = seq + slice;
        QVERIFY(!fits(at, capacity));
    }

    void nothingFitsGivesZero()
    {
        Scenario s = llama8b();
        QCOMPARE(maxMicroBatch(s, 1 * kGiB), std::int64_t(0));
        QCOMPARE(maxSequence(s, 1 * kGiB), std::int64_t(0));
        QCOMPARE(minDataParallel(s, 1 * kGiB), std::int64_t(0)); // ZeRO 0: more GPUs never help
    }

    void sweepPointsEqualEstimates()
    {
        const auto spec = parseSweepSpec("batch=1:64:3");
        QVERIFY(spec.ok());
        const Scenario s = llama8b();
        const auto points = runSweep(s, *spec);
        QVERIFY(points.ok());
        QCOMPARE(points->size(), std::size_t(22));
        for (const SweepPoint &p : *points) {
            Scenario at = s;
            at.microBatch = p.value;
            const Breakdown b = estimate(at);
            QCOMPARE(p.breakdown.total, b.total);
            QCOMPARE(p.peak, stepTimeline(b).peak()); // the timeline's own peak, walked in full
            QCOMPARE(p.required(FitRule::Sum), b.total);
        }
    }

    void sweepCrossing_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("zero");
        QTest::addColumn<FitRule>("rule");
        for (const FitRule rule : {FitRule::Peak, FitRule::Sum}) {
            const std::string by = std::string(", by the ") + std::string(toString(rule));
            QTest::newRow(("batch, coarse doubling steps" + by).c_str()) << "batch=1:1024" << 3 << rule;
            QTest::newRow(("sequence in steps of 4096" + by).c_str()) << "seq=512:262144:4096" << 3 << rule;
            QTest::newRow(("GPU count: memory falls as it grows" + by).c_str()) << "dp=1:64" << 3 << rule;
        }
    }
    void sweepCrossing()
    {
        QFETCH(QString, spec);
        QFETCH(int, zero);
        QFETCH(FitRule, rule);
        Scenario s = llama8b();
        s.zeroStage = zero;
        s.dataParallel = 8;
        const Bytes capacity = 81559 * kMiB;
        const auto parsed = parseSweepSpec(spec.toStdString());
        QVERIFY(parsed.ok());
        const auto points = runSweep(s, *parsed);
        QVERIFY(points.ok());
        const auto boundary = vl::sweepCrossing(s, *parsed, *points, capacity, rule);
        QVERIFY2(boundary, "the sweep crosses the H100's capacity");
        // The curve crosses the capacity between boundary and boundary + 1, exactly.
        const FieldSpec *field = findField(parsed->field);
        Scenario at = s, next = s;
        field->integer(at) = *boundary;
        field->integer(next) = *boundary + 1;
        QVERIFY(fits(at, capacity, rule) != fits(next, capacity, rule));
        if (parsed->field == "batch")
            QCOMPARE(*boundary, maxMicroBatch(s, capacity, rule)); // the solver agrees
        if (parsed->field == "dp")
            QCOMPARE(*boundary + 1, minDataParallel(s, capacity, rule));
    }

    void sweepSpecErrors_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("no equals sign") << "batch"
                                        << "is not FIELD=FROM:TO";
        QTest::newRow("unknown field") << "colour=1:2"
                                       << "not a numeric scenario field";
        QTest::newRow("text field") << "precision=1:2"
                                    << "not a numeric scenario field";
        QTest::newRow("reversed range") << "batch=8:2"
                                        << "1 <= FROM <= TO";
        QTest::newRow("not a number") << "seq=a:9"
                                      << "not a whole number";
        QTest::newRow("too many points") << "seq=1:100000000:1"
                                         << "too many";
    }
    void sweepSpecErrors()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        const auto parsed = parseSweepSpec(spec.toStdString());
        QVERIFY(!parsed.ok());
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(message), parsed.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSolvers)
#include "tst_solvers.moc"
