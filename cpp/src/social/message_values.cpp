// The value classes of messages (message.hpp): AdditionalContent and UserMessageSummary, in the
// house style.
#include <type_traits>
#include <utility>

#include "platformpp/enum_to_string.hpp"
#include "platformpp/errors.hpp"
#include "platformpp/message.hpp"

namespace platformpp {

#define PLATFORMPP_NOEXCEPT_MOVE(T)                                                                     \
    static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>); \
    void T::RequireValid() const {                                                                  \
        if (!valid_) throw NullHandleError(#T ": the instance is null (nullobj or moved from)");     \
    }

PLATFORMPP_NOEXCEPT_MOVE(AdditionalContent)
PLATFORMPP_NOEXCEPT_MOVE(UserMessageSummary)
#undef PLATFORMPP_NOEXCEPT_MOVE

const AdditionalContent AdditionalContent::nullobj{NullTag{}};
const UserMessageSummary UserMessageSummary::nullobj{NullTag{}};

// ---- AdditionalContent ----

AdditionalContent::AdditionalContent(AdditionalContent&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), type_(other.type_), title_(std::move(other.title_)), count_(other.count_) {}
AdditionalContent& AdditionalContent::operator=(AdditionalContent&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        type_ = other.type_;
        title_ = std::move(other.title_);
        count_ = other.count_;
    }
    return *this;
}
bool AdditionalContent::Equals(AdditionalContent rhs) const {
    RequireValid();
    return type_ == rhs.Type() && title_ == rhs.Title() && count_ == rhs.Count();
}
std::string AdditionalContent::TypeToString(AdditionalContentType type) { return EnumToString(type); }
AdditionalContentType AdditionalContent::Type() const { RequireValid(); return type_; }
void AdditionalContent::SetType(AdditionalContentType Type) { RequireValid(); type_ = Type; }
std::optional<std::string> AdditionalContent::Title() const { RequireValid(); return title_; }
void AdditionalContent::SetTitle(std::optional<std::string> Title) { RequireValid(); title_ = std::move(Title); }
uint8_t AdditionalContent::Count() const { RequireValid(); return count_; }
void AdditionalContent::SetCount(uint8_t Count) { RequireValid(); count_ = Count; }

// ---- UserMessageSummary ----

UserMessageSummary::UserMessageSummary(uint64_t userId, uint64_t lastMessageId) noexcept
  : userId_(userId), lastMessageId_(lastMessageId) {}
UserMessageSummary::UserMessageSummary(UserMessageSummary&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), userId_(other.userId_), lastMessageId_(other.lastMessageId_) {}
UserMessageSummary& UserMessageSummary::operator=(UserMessageSummary&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        userId_ = other.userId_;
        lastMessageId_ = other.lastMessageId_;
    }
    return *this;
}
uint64_t UserMessageSummary::UserId() const { RequireValid(); return userId_; }
uint64_t UserMessageSummary::LastMessageId() const { RequireValid(); return lastMessageId_; }

}  // namespace platformpp
