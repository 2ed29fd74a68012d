// SPDX-License-Identifier: GPL-3.0-or-later
//
// WrappingBar: a bar of controls in groups (two by default), side by side when the bar is wide
// enough and each that does not fit on the next row when it is not (a docked panel at projector
// size, or presentation fonts). Its minimum width is the widest group, never their sum, so a long
// bar cannot force its window wider than the screen. Controls go into group(i). By default the groups
// share one row while their minimum sizes fit; setWrapBeforeShrinking(true) wraps as soon as
// their preferred sizes do not (a bar of FullTextComboBoxes keeps its texts whole).
//
// Threading: GUI thread.
#pragma once

#include <QVector>
#include <QWidget>

class QHBoxLayout;

namespace dplab {

class WrappingBar : public QWidget
{
    Q_OBJECT

public:
    explicit WrappingBar(QWidget *parent = nullptr, int groups = 2);

    /** The layout of group i (0 … groups − 1) to add controls to. */
    QHBoxLayout *group(int i) const;
    /** Whether group 1 is not on the first row. */
    bool isWrapped() const;
    /** Wrap when the groups at their preferred widths (true) or at their minimum widths
     *  (false, the default) do not fit on one row. */
    void setWrapBeforeShrinking(bool before);

public slots:
    /** Re-arranges for the current width (call after the groups' contents changed). */
    void arrange();

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    bool mWrapBeforeShrinking = false;
    QVector<QHBoxLayout *> mRows;
    QVector<QWidget *> mGroups;
};

} // namespace dplab
