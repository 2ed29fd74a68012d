// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlaybackController: play / pause / step through a recording at a chosen speed. The position
// is an index into the recorded iterations (0 … count − 1). A QTimer ticks; every tick advances
// iterationsPerTick(speed) indices:
//   speed s iterations per second (1 ≤ s < full speed): tick every max(1000/s, 40) ms and
//   advance max(1, round(s · interval / 1000)) — one iteration a tick at slow speeds, so each
//   iteration is animated; full speed (speed 0): tick every 40 ms and advance ⌈count / 25⌉
//   (the whole recording in about a second).
//
// Threading: GUI thread.
#pragma once

#include <QObject>
#include <QTimer>

namespace dplab {

class PlaybackController : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMinInterval = 40; ///< ms between ticks at the fastest

    explicit PlaybackController(QObject *parent = nullptr);

    void setCount(int count);
    int count() const { return mCount; }
    int index() const { return mIndex; }
    bool isPlaying() const { return mTimer.isActive(); }
    /** Iterations per second; 0 = full speed. */
    void setSpeed(double iterationsPerSecond);
    double speed() const { return mSpeed; }
    /** The timer interval (ms) and the indices advanced per tick at the current speed. */
    int tickInterval() const;
    int iterationsPerTick() const;
    static int tickInterval(double speed);
    static int iterationsPerTick(double speed, int count);

public slots:
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void setIndex(int index);
    /** One timer tick (public for tests). */
    void tick();

signals:
    void indexChanged(int index);
    void playingChanged(bool playing);

private:
    QTimer mTimer;
    int mCount = 0;
    int mIndex = 0;
    double mSpeed = 5.0;
};

} // namespace dplab
