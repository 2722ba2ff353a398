#pragma once
// Undo and redo over the scenario document (Qt's QUndoStack). Every change the model reports
// becomes one step holding the document before and after it; changes of the same fields that
// follow each other within a second - a slider dragged, a number typed - become one step, so
// that one Ctrl+Z takes back one edit. Each step is named after what it changed.

#include "core/scenariofile.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>
#include <memory>
#include <string_view>

namespace vl {

class LedgerModel;
using SharedDocument = std::shared_ptr<const ScenarioDocument>;

class DocumentHistory : public QObject {
    Q_OBJECT
public:
    // `fieldLabel` names a scenario field as the controls do ("Sequence length"); "" where no
    // control shows it.
    DocumentHistory(LedgerModel &model, std::function<QString(std::string_view field)> fieldLabel,
                    QObject *parent = nullptr);

    QUndoStack *stack() { return &m_stack; }
    // A document opened: its history starts with it.
    void restart();
    // The steps renamed in the language now installed.
    void retranslate();
    // The whole document replaced as one step, named `name` (marked with
    // QT_TRANSLATE_NOOP("vl::DocumentHistory", ...)), which undo takes back like any edit.
    void replaceDocument(const ScenarioDocument &document, const char *name);

private:
    friend class DocumentStep;
    // One part of the document an edit changed: its key (a field's name, or the part's) and how
    // the menu names it ("" for a field no control shows).
    struct Change {
        QString key, name;
    };
    QList<Change> changes(const ScenarioDocument &before, const ScenarioDocument &after) const;
    void record();
    void apply(const ScenarioDocument &document); // a step undone or redone
    // The menu's name for a step of these changes.
    static QString describe(const QList<Change> &changed);

    LedgerModel &m_model;
    std::function<QString(std::string_view)> m_fieldLabel;
    QUndoStack m_stack;
    SharedDocument m_current; // the document as the history last saw it
    bool m_applying = false;
};

} // namespace vl
