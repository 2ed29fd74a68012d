// SPDX-License-Identifier: GPL-3.0-or-later
//
// FullTextComboBox: a combo box that asks its layout for the width of its widest choice
// (sizeHint) but can be squeezed to a few characters (minimumSizeHint, setMinimumContentsLength).
// A bar of them (PlotPanel's) therefore shows every choice in full where there is room — and
// WrappingBar moves a group to a second row before squeezing them — without the full texts
// setting the window's minimum width. fullTextWidth() is the width the current text needs
// (what tests compare against to find an elided choice).
//
// Threading: GUI thread.
#pragma once

#include <QComboBox>

namespace dplab {

class FullTextComboBox : public QComboBox
{
    Q_OBJECT

public:
    explicit FullTextComboBox(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    /** Ask for the current choice's width rather than the widest one's (a bar where one long
     *  choice should not take the room of the others; the box then resizes with the choice). */
    void setFitCurrentText(bool current);

    /** The width `box` needs to show its current text unelided (style frame and arrow included). */
    static int fullTextWidth(const QComboBox *box);

private:
    static int textWidth(const QComboBox *box, const QString &text, bool icon);

    bool mFitCurrent = false;
};

} // namespace dplab
