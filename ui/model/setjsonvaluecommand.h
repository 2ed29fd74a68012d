// SPDX-License-Identifier: GPL-3.0-or-later
//
// Undo command: set one value of the experiment document at a JSON pointer (null removes the
// key). Consecutive edits of the same pointer merge, so typing in a spin box is one undo step.
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"

#include <QUndoCommand>

#include <string>

namespace dplab {

class ExperimentDocument;

class SetJsonValueCommand : public QUndoCommand
{
public:
    SetJsonValueCommand(ExperimentDocument *document, std::string pointer, Json value, const QString &text,
                        QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    ExperimentDocument *mDocument;
    std::string mPointer;
    Json mBefore; ///< null when the key was absent
    Json mAfter;
};

} // namespace dplab
