// Undo and redo over the scenario document (ui/documenthistory.h): one step per edit, a drag
// or a number typed merged into one, each named after what it changed, and every undo and
// redo landing on the document as it was.

#include "core/presets.h"
#include "ui/documenthistory.h"
#include "ui/ledgermodel.h"

#include <QTest>

#include <functional>

using namespace vl;

Q_DECLARE_METATYPE(std::function<void(LedgerModel &)>)

namespace {

void setSequence(LedgerModel &model, std::int64_t sequence)
{
    Scenario s = model.scenario();
    s.sequence = sequence;
    model.setScenario(s);
}

void setBatch(LedgerModel &model, std::int64_t batch)
{
    Scenario s = model.scenario();
    s.microBatch = batch;
    model.setScenario(s);
}

// The controls' labels stand in as the field's own name, so that a step's text shows which
// fields it names.
QString labelOf(std::string_view field)
{
    return field == "seq" || field == "batch" || field == "precision"
        ? QString::fromUtf8(field.data(), qsizetype(field.size()))
        : QString();
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void undoRedo_data()
    {
        QTest::addColumn<std::function<void(LedgerModel &)>>("edits");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QString>("undoText"); // the last step's name
        using Edits = std::function<void(LedgerModel &)>;
        QTest::newRow("a slider dragged: one step") << Edits([](LedgerModel &m) {
            for (std::int64_t seq : {1024, 2048, 8192})
                setSequence(m, seq);
        }) << 1 << "seq";
        QTest::newRow("the same field again a second later: two steps") << Edits([](LedgerModel &m) {
            setSequence(m, 1024);
            QTest::qWait(1100);
            setSequence(m, 2048);
        }) << 2 << "seq";
        QTest::newRow("two fields one after the other: two steps") << Edits([](LedgerModel &m) {
            setBatch(m, 2);
            setSequence(m, 2048);
        }) << 2 << "seq";
        QTest::newRow("dragged back to where it started: no step") << Edits([](LedgerModel &m) {
            const std::int64_t start = m.scenario().sequence;
            setSequence(m, 2048);
            setSequence(m, start);
        }) << 0 << "";
        QTest::newRow("another preset: one step, named for the model")
            << Edits([](LedgerModel &m) { m.setModel(QStringLiteral("llama-3.1-8b")); }) << 1 << "Model";
        QTest::newRow("the GPUs compared") << Edits([](LedgerModel &m) {
            m.setGpuIds({QStringLiteral("a100-80gb"), QStringLiteral("h100-sxm")});
        }) << 1 << "Compare against GPUs";
        QTest::newRow("a scenario pinned")
            << Edits([](LedgerModel &m) { m.pinCurrent(QStringLiteral("before")); }) << 1 << "Pinned scenarios";
        QTest::newRow("a field no control shows: the step has no name") << Edits([](LedgerModel &m) {
            Scenario s = m.scenario();
            s.dataParallel = 8;
            m.setScenario(s);
        }) << 1 << "";
        QTest::newRow("views' options are not edits")
            << Edits([](LedgerModel &m) { m.setFitRule(FitRule::Sum); }) << 0 << "";
    }
    void undoRedo()
    {
        QFETCH(std::function<void(LedgerModel &)>, edits);
        QFETCH(int, steps);
        QFETCH(QString, undoText);
        LedgerModel model(loadCatalog(VL_SOURCE_PRESETS, {}));
        DocumentHistory history(model, labelOf);
        const ScenarioDocument start = model.document();
        edits(model);
        const ScenarioDocument end = model.document();
        QUndoStack *stack = history.stack();
        QCOMPARE(stack->count(), steps);
        QCOMPARE(stack->undoText(), undoText);
        while (stack->canUndo())
            stack->undo();
        QVERIFY(model.document() == start);
        while (stack->canRedo())
            stack->redo();
        QVERIFY(model.document() == end);
        QCOMPARE(stack->count(), steps); // undoing and redoing added none
    }

    // An edit after an undo replaces what could be redone; opening a file starts afresh.
    void editAfterUndoDropsTheRedo()
    {
        LedgerModel model(loadCatalog(VL_SOURCE_PRESETS, {}));
        DocumentHistory history(model, labelOf);
        setBatch(model, 2);
        setSequence(model, 2048);
        history.stack()->undo();
        QCOMPARE(model.scenario().microBatch, std::int64_t(2));
        QVERIFY(history.stack()->canRedo());
        setBatch(model, 4);
        QVERIFY(!history.stack()->canRedo());
        QCOMPARE(history.stack()->undoText(), QStringLiteral("batch"));
        history.restart();
        QVERIFY(!history.stack()->canUndo());
        QCOMPARE(model.scenario().microBatch, std::int64_t(4)); // the document stays as it is
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
