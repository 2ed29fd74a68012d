// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/messages.h"

namespace dplab {

const Message *findMessage(const MessageRecord &record, int sender, const std::string &channel)
{
    for (const Message &m : record.messages)
        if (m.sender == sender && m.channel == channel)
            return &m;
    return nullptr;
}

} // namespace dplab
