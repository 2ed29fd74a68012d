// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlaybackView: the network at one recorded iteration. Agents are discs coloured by a chosen
// quantity (colour legend on the right; log scale when the values span more than two decades);
// every link j → i carries agent j's message of that iteration as a moving token (one per
// channel); the line's width grows with the message norm ‖sent‖ and is dashed when the run
// compresses its messages. Clicking near a link selects it (edgeClicked) for the message
// inspector.
//
// Threading: GUI thread.
#pragma once

#include "teachingsession.h"

#include <QPointF>
#include <QVariantAnimation>
#include <QWidget>

#include <vector>

namespace dplab {

class PlaybackView : public QWidget
{
    Q_OBJECT

public:
    explicit PlaybackView(QWidget *parent = nullptr);

    void setSession(const TeachingSession *session);
    void setRun(int run);
    void setQuantity(TeachingSession::Quantity quantity);
    TeachingSession::Quantity quantity() const { return mQuantity; }
    /** Shows recorded index `index`; tokens travel for `animationMs` (0: drawn half-way). */
    void setIndex(int index, int animationMs = 0);
    int index() const { return mIndex; }
    void setSelectedEdge(int from, int to);

    /** The colour of an agent as drawn (tests), and the legend's range. */
    QColor agentColor(int agent) const;
    double legendMin() const { return mMin; }
    /** Where a value sits on the colour ramp, 0 … 1 (log scale when the legend is). */
    double legendPosition(double value) const { return normalised(value); }
    double legendMax() const { return mMax; }
    /** The drawn width of link from → to (tests), 0 when there is no message. */
    double edgeWidth(int from, int to) const;
    /** The widget position of an agent / the middle of a link (tests click there). */
    QPointF agentPosition(int agent) const;
    QPointF edgeMidpoint(int from, int to) const;
    QSize sizeHint() const override { return {520, 420}; }

    /** A colour for t ∈ [0, 1] from the perceptual "viridis" ramp. */
    static QColor ramp(double t);

signals:
    void edgeClicked(int from, int to);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Link {
        int from;
        int to;
    };
    void rebuild();
    void updateValues();
    QRectF graphRect() const;
    double normalised(double v) const;

    const TeachingSession *mSession = nullptr;
    int mRun = 0;
    int mIndex = 0;
    TeachingSession::Quantity mQuantity = TeachingSession::Quantity::DistanceToOptimum;
    std::vector<QPointF> mLayout; ///< unit-square positions
    std::vector<Link> mLinks;
    Eigen::VectorXd mValues;
    std::vector<double> mNorms; ///< per agent: ‖sent‖ over its channels at this iteration
    double mMaxNorm = 0;
    double mMin = 0, mMax = 1;
    bool mLog = false;
    double mProgress = 0.5;
    QVariantAnimation mAnimation;
    int mSelectedFrom = -1, mSelectedTo = -1;
};

} // namespace dplab
