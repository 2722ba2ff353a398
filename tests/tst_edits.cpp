// What follows an edit (core/edits.h): the same rule for the GUI's controls and the CLI's flags.

#include "core/edits.h"
#include "core/estimate.h"

#include <QTest>

using namespace vl;

Q_DECLARE_METATYPE(Scenario)

namespace {

Scenario llama()
{
    Scenario s;
    s.arch.fixedParams = 0;
    return s;
}

Scenario bert()
{
    Scenario s = llama();
    s.arch.mlp = MlpKind::Gelu;
    s.arch.norm = NormKind::LayerNorm;
    s.arch.modeling = Modeling::Bert;
    s.arch.learnedPositions = 512;
    s.arch.linearBias = true;
    return s;
}

} // namespace

class TestEdits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void implementationDefaults_data()
    {
        QTest::addColumn<Scenario>("before");
        QTest::addColumn<int>("implementation");
        QTest::addColumn<QString>("kept"); // a field the user set explicitly, or empty
        QTest::addColumn<int>("attention");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<bool>("valid");

        Scenario eagerDropout = llama();
        eagerDropout.dropout = true;
        eagerDropout.recompute = Recompute::Selective;
        QTest::newRow("torchtitan: SDPA, whole-layer checkpointing, no dropout")
            << eagerDropout << int(Implementation::TorchTitan) << "" << int(Attention::Sdpa) << int(Recompute::Full)
            << false << true;
        QTest::newRow("huggingface keeps eager attention for Llama")
            << eagerDropout << int(Implementation::HuggingFace) << "" << int(Attention::Eager) << int(Recompute::Full)
            << false << true;
        QTest::newRow("an attention the user typed stays, and is refused")
            << llama() << int(Implementation::TorchTitan) << "attention" << int(Attention::Eager)
            << int(Recompute::None) << false << false;
        Scenario flashBert = bert();
        flashBert.attention = Attention::Flash;
        flashBert.dropout = true;
        QTest::newRow("BERT: eager attention, dropout stays")
            << flashBert << int(Implementation::HuggingFace) << "" << int(Attention::Eager) << int(Recompute::None)
            << true << true;
        QTest::newRow("megatron changes nothing")
            << eagerDropout << int(Implementation::Megatron) << "" << int(Attention::Eager)
            << int(Recompute::Selective) << true << true;
    }
    void implementationDefaults()
    {
        QFETCH(Scenario, before);
        QFETCH(int, implementation);
        QFETCH(QString, kept);
        QFETCH(int, attention);
        QFETCH(int, recompute);
        QFETCH(bool, dropout);
        QFETCH(bool, valid);
        before.implementation = Implementation(implementation);
        const std::string keptName = kept.toStdString();
        std::vector<std::string_view> keep;
        if (!keptName.empty())
            keep.push_back(keptName);
        const Scenario after = withImplementationDefaults(before, keep);
        QCOMPARE(int(after.attention), attention);
        QCOMPARE(int(after.recompute), recompute);
        QCOMPARE(after.dropout, dropout);
        QCOMPARE(!validate(after), valid);
    }
};

QTEST_GUILESS_MAIN(TestEdits)
#include "tst_edits.moc"
