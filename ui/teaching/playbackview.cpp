// SPDX-License-Identifier: GPL-3.0-or-later
#include "playbackview.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

constexpr double kNodeRadius = 15.0;
constexpr int kLegendWidth = 90;

/** The colour legend's width at the current font: 90 px at 100 %, wider when the presentation
 *  size enlarges its labels (at 200 % "0.694" and "Distance to x*" were cut). */
int legendWidth(const QFontMetrics &fm)
{
    return std::max(kLegendWidth, 12 + 16 + 4 + fm.horizontalAdvance(QStringLiteral("0.0000")) + 6);
}

double distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const double len2 = ab.x() * ab.x() + ab.y() * ab.y();
    double t = len2 > 0 ? ((p - a).x() * ab.x() + (p - a).y() * ab.y()) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF q = a + t * ab;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}

QColor channelColor(int channel)
{
    static const QColor colors[] = {QColor(0xd6, 0x27, 0x28), QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0x94, 0x67, 0xbd)};
    return colors[channel % 4];
}

} // namespace

QColor PlaybackView::ramp(double t)
{
    // Viridis at five stops, linearly interpolated.
    static const double stops[5][3] = {
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4.0;
    const int k = std::min(3, static_cast<int>(t));
    const double f = t - k;
    auto mix = [&](int c) { return static_cast<int>(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]))); };
    return QColor(mix(0), mix(1), mix(2));
}

PlaybackView::PlaybackView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(220, 160);
    setMouseTracking(false);
    mAnimation.setStartValue(0.0);
    mAnimation.setEndValue(1.0);
    connect(&mAnimation, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        mProgress = v.toDouble();
        update();
    });
}

void PlaybackView::setSession(const TeachingSession *session)
{
    mSession = session;
    rebuild();
}

void PlaybackView::setRun(int run)
{
    mRun = run;
    rebuild();
}

void PlaybackView::setQuantity(TeachingSession::Quantity quantity)
{
    mQuantity = quantity;
    rebuild();
}

void PlaybackView::setSelectedEdge(int from, int to)
{
    mSelectedFrom = from;
    mSelectedTo = to;
    update();
}

void PlaybackView::rebuild()
{
    mLayout.clear();
    mLinks.clear();
    mMaxNorm = 0;
    if (!mSession || !mSession->hasResult() || mRun >= mSession->runCount()) {
        update();
        return;
    }
    const Graph &graph = mSession->experiment()->graph;
    const int n = graph.nodeCount();
    const auto &positions = graph.positions();
    if (static_cast<int>(positions.size()) == n && n > 0) {
        double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
        for (const auto &p : positions) {
            minX = std::min(minX, p.x);
            maxX = std::max(maxX, p.x);
            minY = std::min(minY, p.y);
            maxY = std::max(maxY, p.y);
        }
        const double span = std::max({maxX - minX, maxY - minY, 1e-9});
        for (const auto &p : positions)
            mLayout.emplace_back(0.5 + (p.x - 0.5 * (minX + maxX)) / span, 0.5 + (p.y - 0.5 * (minY + maxY)) / span);
    } else {
        for (int i = 0; i < n; ++i) {
            const double a = -M_PI / 2 + 2 * M_PI * i / std::max(1, n);
            mLayout.emplace_back(0.5 + 0.5 * std::cos(a), 0.5 + 0.5 * std::sin(a));
        }
    }
    for (const Edge &e : graph.edges()) {
        mLinks.push_back({e.from, e.to});
        if (!graph.isDirected())
            mLinks.push_back({e.to, e.from});
    }
    // Message norms and the colour range over the whole recording (sampled), so colours and
    // widths compare across iterations.
    const int count = static_cast<int>(mSession->iterations(mRun).size());
    const int samples = std::min(count, 200);
    double lo = 1e300, hi = -1e300;
    for (int s = 0; s < samples; ++s) {
        const int k = samples > 1 ? static_cast<int>(std::lround(static_cast<double>(s) * (count - 1) / (samples - 1))) : 0;
        const Eigen::VectorXd v = mSession->quantity(mRun, k, mQuantity);
        for (Eigen::Index i = 0; i < v.size(); ++i)
            if (std::isfinite(v[i])) {
                lo = std::min(lo, v[i]);
                hi = std::max(hi, v[i]);
            }
        if (const MessageRecord *record = mSession->messages(mRun, mSession->iterations(mRun)[k])) {
            std::vector<double> norms(n, 0.0);
            for (const Message &m : record->messages)
                if (m.sender >= 0 && m.sender < n)
                    norms[m.sender] += m.sent.squaredNorm();
            for (double v2 : norms)
                mMaxNorm = std::max(mMaxNorm, std::sqrt(v2));
        }
    }
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    mMin = lo;
    mMax = hi;
    mLog = lo > 0 && hi / lo > 100;
    updateValues();
}

void PlaybackView::setIndex(int index, int animationMs)
{
    mIndex = index;
    mAnimation.stop();
    if (animationMs > 0) {
        mProgress = 0;
        mAnimation.setDuration(animationMs);
        mAnimation.start();
    } else {
        mProgress = 0.5;
    }
    updateValues();
}

void PlaybackView::updateValues()
{
    mValues.resize(0);
    mNorms.assign(mLayout.size(), 0.0);
    if (mSession && mSession->hasResult() && mRun < mSession->runCount()) {
        mValues = mSession->quantity(mRun, mIndex, mQuantity);
        const auto &its = mSession->iterations(mRun);
        if (mIndex >= 0 && mIndex < static_cast<int>(its.size()))
            if (const MessageRecord *record = mSession->messages(mRun, its[mIndex]))
                for (const Message &m : record->messages)
                    if (m.sender >= 0 && m.sender < static_cast<int>(mNorms.size()))
                        mNorms[m.sender] += m.sent.squaredNorm();
        for (double &v : mNorms)
            v = std::sqrt(v);
    }
    update();
}

double PlaybackView::normalised(double v) const
{
    if (!std::isfinite(v))
        return 0;
    if (mLog)
        return (std::log10(std::max(v, mMin)) - std::log10(mMin)) / std::max(1e-300, std::log10(mMax) - std::log10(mMin));
    return mMax > mMin ? (v - mMin) / (mMax - mMin) : 0.5;
}

QColor PlaybackView::agentColor(int agent) const
{
    if (agent < 0 || agent >= mValues.size())
        return QColor(200, 200, 200);
    return ramp(normalised(mValues[agent]));
}

double PlaybackView::edgeWidth(int from, int to) const
{
    if (from < 0 || from >= static_cast<int>(mNorms.size()) || !(mMaxNorm > 0) || mNorms[from] == 0)
        return 0;
    (void)to;
    return 1.0 + 5.0 * std::sqrt(std::min(1.0, mNorms[from] / mMaxNorm));
}

QRectF PlaybackView::graphRect() const
{
    const double m = kNodeRadius + 10;
    return QRectF(m, m, std::max(10.0, width() - legendWidth(fontMetrics()) - 2 * m), std::max(10.0, height() - 2 * m));
}

QPointF PlaybackView::agentPosition(int agent) const
{
    if (agent < 0 || agent >= static_cast<int>(mLayout.size()))
        return {};
    const QRectF r = graphRect();
    const double side = std::min(r.width(), r.height());
    const QPointF origin(r.center().x() - side / 2, r.center().y() - side / 2);
    return origin + QPointF(mLayout[agent].x() * side, (1.0 - mLayout[agent].y()) * side);
}

QPointF PlaybackView::edgeMidpoint(int from, int to) const
{
    const QPointF a = agentPosition(from), b = agentPosition(to);
    // Links j → i and i → j are drawn side by side: offset to the left of the direction.
    const QPointF d = b - a;
    const double len = std::max(1e-9, std::hypot(d.x(), d.y()));
    const QPointF normal(-d.y() / len, d.x() / len);
    return 0.5 * (a + b) + 4.0 * normal;
}

void PlaybackView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (mLayout.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Record the experiment to play it back."));
        return;
    }
    const bool dashed = mSession && mSession->compressed(mRun);
    const QStringList channels = mSession ? mSession->channels(mRun) : QStringList();
    const MessageRecord *record = nullptr;
    const auto &its = mSession->iterations(mRun);
    if (mIndex >= 0 && mIndex < static_cast<int>(its.size()))
        record = mSession->messages(mRun, its[mIndex]);

    for (const Link &link : mLinks) {
        const QPointF a = agentPosition(link.from), b = agentPosition(link.to);
        const QPointF d = b - a;
        const double len = std::max(1e-9, std::hypot(d.x(), d.y()));
        const QPointF u = d / len, normal(-u.y(), u.x());
        const QPointF start = a + kNodeRadius * u + 4.0 * normal, end = b - kNodeRadius * u + 4.0 * normal;
        const double w = edgeWidth(link.from, link.to);
        const bool selected = link.from == mSelectedFrom && link.to == mSelectedTo;
        QPen pen(selected ? QColor(0xff, 0x7f, 0x0e) : QColor(90, 90, 110), std::max(1.0, w));
        if (dashed)
            pen.setStyle(Qt::DashLine);
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        p.drawLine(start, end);
        // Arrow head at the receiver.
        const QPointF tip = end;
        const QPointF left = tip - 8 * u + 4 * normal, right = tip - 8 * u - 4 * normal;
        p.setPen(Qt::NoPen);
        p.setBrush(pen.color());
        p.drawPolygon(QPolygonF{tip, left, right});
        // Tokens: one per channel the sender used in this iteration.
        if (record && w > 0) {
            int c = 0;
            for (const QString &channel : channels) {
                const bool sent = std::any_of(record->messages.begin(), record->messages.end(), [&](const Message &m) {
                    return m.sender == link.from && QString::fromStdString(m.channel) == channel;
                });
                if (sent) {
                    const double t = std::clamp(mProgress - 0.08 * c, 0.0, 1.0);
                    const QPointF at = start + t * (end - start);
                    p.setBrush(channelColor(c));
                    p.setPen(QPen(Qt::white, 1));
                    p.drawEllipse(at, 4.5, 4.5);
                }
                ++c;
            }
        }
    }
    p.setBrush(Qt::NoBrush);
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    for (int i = 0; i < static_cast<int>(mLayout.size()); ++i) {
        const QPointF c = agentPosition(i);
        const QColor fill = agentColor(i);
        p.setPen(QPen(QColor(40, 40, 40), 1.5));
        p.setBrush(fill);
        p.drawEllipse(c, kNodeRadius, kNodeRadius);
        p.setPen(fill.lightness() > 140 ? Qt::black : Qt::white);
        p.drawText(QRectF(c.x() - kNodeRadius, c.y() - kNodeRadius, 2 * kNodeRadius, 2 * kNodeRadius), Qt::AlignCenter,
                   QString::number(i));
    }
    // Colour legend.
    p.setFont(font());
    const QFontMetrics fm = fontMetrics();
    const int legend = legendWidth(fm);
    const int line = fm.lineSpacing();
    const QRectF bar(width() - legend + 12, 8 + line + 4, 16, std::max(40, height() - 2 * line - 40));
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        p.setPen(ramp(1.0 - y / bar.height()));
        p.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    p.setPen(palette().color(QPalette::Text));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    auto label = [&](double v) { return QString::number(v, 'g', 3); };
    p.drawText(QPointF(bar.right() + 4, bar.top() + fm.ascent() * 0.7), label(mMax));
    p.drawText(QPointF(bar.right() + 4, bar.bottom()), label(mMin));
    if (mLog)
        p.drawText(QPointF(bar.left(), bar.bottom() + line), tr("log scale"));
    const QString title = TeachingSession::quantityNames().value(static_cast<int>(mQuantity));
    const int titleWidth = std::max(legend + 36, fm.horizontalAdvance(title) + 8);
    p.drawText(QRectF(width() - titleWidth - 4, 4, titleWidth, line + 4), Qt::AlignRight | Qt::AlignVCenter, title);
    if (!channels.isEmpty()) {
        double y = height() - double(line) * channels.size() - 6 + line / 2.0;
        for (int c = 0; c < channels.size(); ++c, y += line) {
            p.setBrush(channelColor(c));
            p.setPen(Qt::NoPen);
            p.drawEllipse(QPointF(12, y), 4.5, 4.5);
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QPointF(22, y + fm.ascent() / 2.0 - 1), tr("message %1").arg(channels[c]));
        }
    }
}

void PlaybackView::mousePressEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    double best = 8.0;
    int from = -1, to = -1;
    for (const Link &link : mLinks) {
        const QPointF a = agentPosition(link.from), b = agentPosition(link.to);
        const QPointF d = b - a;
        const double len = std::max(1e-9, std::hypot(d.x(), d.y()));
        const QPointF normal(-d.y() / len, d.x() / len);
        const double dist = distanceToSegment(pos, a + 4.0 * normal, b + 4.0 * normal);
        if (dist < best) {
            best = dist;
            from = link.from;
            to = link.to;
        }
    }
    if (from >= 0) {
        setSelectedEdge(from, to);
        emit edgeClicked(from, to);
    }
    QWidget::mousePressEvent(event);
}

} // namespace dplab
