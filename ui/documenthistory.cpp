#include "ui/documenthistory.h"

#include "core/fields.h"
#include "ui/ledgermodel.h"

#include <QStringList>
#include <QUndoCommand>

#include <chrono>

namespace vl {

namespace {

// Changes of the same fields closer together than this are one edit.
constexpr std::chrono::milliseconds kOneEdit{1000};

} // namespace

// One step of the history: the document before and after an edit.
class DocumentStep : public QUndoCommand {
public:
    // `name` (untranslated, DocumentHistory's context) names a step that replaced the whole
    // document; such a step merges with none.
    DocumentStep(DocumentHistory &history, SharedDocument before, SharedDocument after, const char *name = nullptr)
        : m_history(history), m_before(std::move(before)), m_after(std::move(after)), m_name(name),
          m_when(std::chrono::steady_clock::now())
    {
        if (name) {
            retranslate();
            return;
        }
        // What changed, found once on every slider tick: its key and its name come from it.
        const QList<DocumentHistory::Change> changed = m_history.changes(*m_before, *m_after);
        QStringList keys;
        for (const DocumentHistory::Change &change : changed)
            keys << change.key;
        m_key = keys.join(QLatin1Char(','));
        setText(DocumentHistory::describe(changed));
    }

    void retranslate()
    {
        setText(m_name ? DocumentHistory::tr(m_name)
                       : DocumentHistory::describe(m_history.changes(*m_before, *m_after)));
    }
    int id() const override { return 1; }
    void undo() override { m_history.apply(*m_before); }
    void redo() override
    {
        if (m_done) // pushed after the model already holds it
            m_history.apply(*m_after);
        m_done = true;
    }
    bool mergeWith(const QUndoCommand *command) override
    {
        const auto *next = static_cast<const DocumentStep *>(command);
        if (m_key.isEmpty() || next->m_key != m_key || next->m_when - m_when > kOneEdit)
            return false;
        m_after = next->m_after;
        m_when = next->m_when;
        setObsolete(*m_after == *m_before); // dragged back to where it started: nothing to undo
        return true;
    }

private:
    DocumentHistory &m_history;
    SharedDocument m_before, m_after; // each shared with the steps beside it
    const char *m_name;
    QString m_key; // what it changed: a step merges with the next that changed the same, soon after
    std::chrono::steady_clock::time_point m_when; // of the latest change merged into it
    bool m_done = false;
};

DocumentHistory::DocumentHistory(LedgerModel &model, std::function<QString(std::string_view)> fieldLabel,
                                 QObject *parent)
    : QObject(parent), m_model(model), m_fieldLabel(std::move(fieldLabel)),
      m_current(std::make_shared<const ScenarioDocument>(model.document()))
{
    m_stack.setUndoLimit(200);
    connect(&m_model, &LedgerModel::changed, this, &DocumentHistory::record);
}

void DocumentHistory::restart()
{
    m_stack.clear();
    m_current = std::make_shared<const ScenarioDocument>(m_model.document());
}

void DocumentHistory::retranslate()
{
    for (int i = 0; i < m_stack.count(); ++i)
        static_cast<DocumentStep *>(const_cast<QUndoCommand *>(m_stack.command(i)))->retranslate();
}

void DocumentHistory::record()
{
    if (m_model.document() == *m_current)
        return;
    SharedDocument before = std::exchange(m_current, std::make_shared<const ScenarioDocument>(m_model.document()));
    if (!m_applying)
        m_stack.push(new DocumentStep(*this, std::move(before), m_current));
}

void DocumentHistory::replaceDocument(const ScenarioDocument &document, const char *name)
{
    SharedDocument before = m_current;
    apply(document);
    if (!(*m_current == *before))
        m_stack.push(new DocumentStep(*this, std::move(before), m_current, name));
}

void DocumentHistory::apply(const ScenarioDocument &document)
{
    m_applying = true;
    m_model.setDocument(document);
    m_applying = false;
}

QList<DocumentHistory::Change> DocumentHistory::changes(const ScenarioDocument &before,
                                                        const ScenarioDocument &after) const
{
    QList<Change> out;
    if (before.modelId != after.modelId)
        out.push_back({QStringLiteral("model"), tr("Model")});
    for (const std::string_view field : changedFields(before.scenario, after.scenario))
        out.push_back({QString::fromUtf8(field.data(), qsizetype(field.size())), m_fieldLabel(field)});
    if (before.gpuIds != after.gpuIds)
        out.push_back({QStringLiteral("gpus"), tr("Compare against GPUs")});
    if (before.units != after.units)
        out.push_back({QStringLiteral("units"), tr("Units")});
    if (!(before.pins == after.pins))
        out.push_back({QStringLiteral("pins"), tr("Pinned scenarios")});
    return out;
}

QString DocumentHistory::describe(const QList<Change> &changed)
{
    QStringList names;
    for (const Change &change : changed) {
        if (change.key == QLatin1String("model")) // another preset: its architecture follows
            return change.name;
        if (!change.name.isEmpty() && !names.contains(change.name))
            names << change.name;
    }
    // The first two name it; a rule that followed the edit may have changed more. "" where no
    // control names what changed: the action then reads just "Undo".
    return names.size() > 2 ? tr("%1, %2 and more").arg(names[0], names[1]) : names.join(tr(", "));
}

} // namespace vl
