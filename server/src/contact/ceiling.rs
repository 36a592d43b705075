//! The owner's notice that the site-wide ceiling held messages in Spam: one subject and one text,
//! sent the same through e-mail and every webhook.

/// The subject of the notice that the site-wide ceiling holds messages in Spam.
pub const CEILING_SUBJECT: &str = "Contact form: messages held in Spam this hour";

/// The words of that notice, once per clock hour in which it happened, with the count so far.
pub fn ceiling_text(held: i64) -> String {
    let messages = if held == 1 {
        "1 message was".to_owned()
    } else {
        format!("{held} messages were")
    };
    format!(
        "Your contact form received more real-looking messages in the last hour than its ceiling \
         allows (--spam-ceiling-per-hour). This hour, {messages} held in Spam so far, without a \
         notification; any more this hour are held the same way.\n\n\
         Open the Spam folder of your inbox and move any real message back to the Inbox. If the \
         traffic is real, raise the ceiling.\n"
    )
}
