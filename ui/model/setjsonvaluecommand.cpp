// SPDX-License-Identifier: GPL-3.0-or-later
#include "setjsonvaluecommand.h"

#include "experimentdocument.h"

namespace dplab {

SetJsonValueCommand::SetJsonValueCommand(ExperimentDocument *document, std::string pointer, Json value,
                                         const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , mDocument(document)
    , mPointer(std::move(pointer))
    , mBefore(document->value(mPointer))
    , mAfter(std::move(value))
{
}

void SetJsonValueCommand::undo()
{
    mDocument->applyValue(mPointer, mBefore);
}

void SetJsonValueCommand::redo()
{
    mDocument->applyValue(mPointer, mAfter);
}

int SetJsonValueCommand::id() const
{
    return 0x4a53; // "JS"
}

bool SetJsonValueCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const SetJsonValueCommand *>(other);
    // Only leaf values merge (typing in one field); structural edits (a whole run, the run
    // list) stay separate steps.
    if (o->mPointer != mPointer || mPointer == "/runs" || mAfter.is_object() || mAfter.is_array())
        return false;
    mAfter = o->mAfter;
    return true;
}

} // namespace dplab
