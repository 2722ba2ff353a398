// Bad input never crashes and never yields a silent nonsense number: each gets an error
// naming the field (as the CLI spells it) and what is allowed.

#include "core/estimate.h"
#include "core/fields.h"

#include <QTest>

#include <limits>

using namespace vl;

class TestValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void invalidScenarios_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expectedField");
        QTest::addColumn<QString>("expectedText");
        QTest::newRow("zero batch") << "batch"
                                    << "0"
                                    << "batch"
                                    << "allowed 1 to";
        QTest::newRow("negative sequence") << "seq"
                                           << "-4"
                                           << "seq"
                                           << "allowed 1 to";
        QTest::newRow("zero hidden") << "hidden"
                                     << "0"
                                     << "hidden"
                                     << "allowed 1 to";
        QTest::newRow("heads not dividing hidden") << "heads"
                                                   << "30"
                                                   << "heads"
                                                   << "does not divide hidden size 4096";
        QTest::newRow("kv heads not dividing heads") << "kv-heads"
                                                     << "5"
                                                     << "kv-heads"
                                                     << "must divide the 32";
        QTest::newRow("ZeRO stage 4") << "zero"
                                      << "4"
                                      << "zero"
                                      << "allowed 0 to 3";
        QTest::newRow("TP not dividing heads") << "tp"
                                               << "3"
                                               << "tp"
                                               << "does not divide the 32";
        QTest::newRow("more stages than layers") << "pp"
                                                 << "64"
                                                 << "pp"
                                                 << "allowed 1 to 32";
        QTest::newRow("interleaving without pipeline") << "vpp"
                                                       << "2"
                                                       << "vpp"
                                                       << "need pipeline parallelism";
        QTest::newRow("offload without ZeRO") << "offload"
                                              << "optimizer"
                                              << "offload"
                                              << "choose --zero";
        QTest::newRow("overflow-sized sequence") << "seq"
                                                 << "16000000"
                                                 << "seq"
                                                 << "too large";
        QTest::newRow("absurd parameter count") << "params"
                                                << "1e18"
                                                << "params"
                                                << "allowed 0 to";
        QTest::newRow("tiny parameter count") << "params"
                                              << "10"
                                              << "params"
                                              << "too small";
    }
    void invalidScenarios()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expectedField);
        QFETCH(QString, expectedText);
        Scenario s;
        QVERIFY(!setField(s, field.toStdString(), value.toStdString()));
        const auto error = scenarioError(s);
        QVERIFY2(error, "an error is expected");
        QCOMPARE(QString::fromStdString(error->field), expectedField);
        QVERIFY2(QString::fromStdString(error->message).contains(expectedText), error->message.c_str());
        QVERIFY(!validatedEstimate(s).ok());
    }

    void unparsableValues_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expectedText");
        QTest::newRow("NaN batch") << "batch"
                                   << "nan"
                                   << "not a whole number";
        QTest::newRow("fractional layers") << "layers"
                                           << "1.5"
                                           << "not a whole number";
        QTest::newRow("unknown precision") << "precision"
                                           << "fp4"
                                           << "fp32|mixed-fp16|mixed-bf16|bf16";
        QTest::newRow("unknown optimizer") << "optimizer"
                                           << "adam"
                                           << "adamw|adamw-8bit";
        QTest::newRow("yes/no field") << "flash-attention"
                                      << "maybe"
                                      << "yes|no";
        QTest::newRow("unknown LoRA target") << "lora-targets"
                                             << "q,x"
                                             << "q,v";
    }
    void unparsableValues()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expectedText);
        Scenario s;
        const Scenario before = s;
        const auto error = setField(s, field.toStdString(), value.toStdString());
        QVERIFY(error);
        QCOMPARE(QString::fromStdString(error->field), field);
        QVERIFY2(QString::fromStdString(error->message).contains(expectedText), error->message.c_str());
        QVERIFY(s == before); // a rejected value changes nothing
    }

    // Hugging Face's Mixtral keeps each token's k routed rows, h wide: a top-k in the thousands
    // over a large batch would overflow the byte count, and the magnitude guard refuses it.
    void mixtureOfExpertsWithinBounds()
    {
        Scenario s;
        s.implementation = Implementation::HuggingFace;
        s.attention = Attention::Sdpa;
        s.arch.experts = 4096;
        s.arch.expertsPerToken = 4096;
        s.arch.ffn = 1;
        s.arch.layers = 1000;
        s.sequence = 128;
        s.microBatch = 1 << 20;
        const auto error = scenarioError(s);
        QVERIFY2(error, "an error is expected");
        QCOMPARE(QString::fromStdString(error->field), QStringLiteral("seq"));
        s.microBatch = 1; // the same model on one sequence is counted
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        QVERIFY(estimate(s).total > 0);
    }

    void defaultScenarioIsValid() { QVERIFY(!scenarioError(Scenario{})); }
};

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
