// SPDX-License-Identifier: GPL-3.0-or-later
#include "playbackcontroller.h"

#include <algorithm>
#include <cmath>

namespace dplab {

PlaybackController::PlaybackController(QObject *parent) : QObject(parent)
{
    connect(&mTimer, &QTimer::timeout, this, &PlaybackController::tick);
    mTimer.setInterval(tickInterval());
}

int PlaybackController::tickInterval(double speed)
{
    if (!(speed > 0))
        return kMinInterval;
    return std::max(kMinInterval, static_cast<int>(std::lround(1000.0 / speed)));
}

int PlaybackController::iterationsPerTick(double speed, int count)
{
    if (!(speed > 0))
        return std::max(1, (count + 24) / 25);
    return std::max(1, static_cast<int>(std::lround(speed * tickInterval(speed) / 1000.0)));
}

int PlaybackController::tickInterval() const
{
    return tickInterval(mSpeed);
}

int PlaybackController::iterationsPerTick() const
{
    return iterationsPerTick(mSpeed, mCount);
}

void PlaybackController::setCount(int count)
{
    mCount = std::max(0, count);
    if (mIndex >= mCount)
        setIndex(std::max(0, mCount - 1));
}

void PlaybackController::setSpeed(double iterationsPerSecond)
{
    mSpeed = std::max(0.0, iterationsPerSecond);
    mTimer.setInterval(tickInterval());
}

void PlaybackController::play()
{
    if (mCount <= 1)
        return;
    if (mIndex >= mCount - 1)
        setIndex(0); // play again from the start
    if (!mTimer.isActive()) {
        mTimer.start(tickInterval());
        emit playingChanged(true);
    }
}

void PlaybackController::pause()
{
    if (mTimer.isActive()) {
        mTimer.stop();
        emit playingChanged(false);
    }
}

void PlaybackController::togglePlay()
{
    if (isPlaying())
        pause();
    else
        play();
}

void PlaybackController::stepForward()
{
    pause();
    setIndex(mIndex + 1);
}

void PlaybackController::stepBack()
{
    pause();
    setIndex(mIndex - 1);
}

void PlaybackController::setIndex(int index)
{
    index = std::clamp(index, 0, std::max(0, mCount - 1));
    if (index == mIndex)
        return;
    mIndex = index;
    emit indexChanged(mIndex);
}

void PlaybackController::tick()
{
    const int next = std::min(mIndex + iterationsPerTick(), mCount - 1);
    setIndex(next);
    if (mIndex >= mCount - 1)
        pause();
}

} // namespace dplab
