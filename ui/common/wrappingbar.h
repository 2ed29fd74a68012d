// SPDX-License-Identifier: GPL-3.0-or-later
//
// WrappingBar: a bar of controls in two groups, side by side when the bar is wide enough and the
// second under the first when it is not (a docked panel at projector size, or presentation
// fonts). Its minimum width is the wider group, never both, so a long bar cannot force its
// window wider than the screen. Controls go into group(0) and group(1).
//
// Threading: GUI thread.
#pragma once

#include <QWidget>

class QHBoxLayout;

namespace dplab {

class WrappingBar : public QWidget
{
    Q_OBJECT

public:
    explicit WrappingBar(QWidget *parent = nullptr);

    /** The layout of group i (0 or 1) to add controls to. */
    QHBoxLayout *group(int i) const;
    /** Whether group 1 is on the second row. */
    bool isWrapped() const;

public slots:
    /** Re-arranges for the current width (call after the groups' contents changed). */
    void arrange();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QHBoxLayout *mRows[2] = {};
    QWidget *mGroups[2] = {};
};

} // namespace dplab
