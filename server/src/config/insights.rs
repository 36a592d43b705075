//! Visitor insights' settings.

use clap::Args;

/// Visitor insights' settings.
#[derive(Debug, Clone, Args)]
pub struct InsightsSettings {
    /// Count visits (`on`) or not (`off`: nothing is counted or stored, the beacon is ignored).
    #[arg(long = "insights", env = "PORTFOLIO_INSIGHTS", value_name = "on|off",
          default_value = "on", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub enabled: bool,

    /// The time zone whose days insights are counted in, e.g. `Europe/Berlin` (IANA names).
    #[arg(long = "insights-time-zone", env = "PORTFOLIO_INSIGHTS_TIME_ZONE", value_name = "ZONE",
          default_value = "UTC", value_parser = parse_zone)]
    pub time_zone: chrono_tz::Tz,

    /// Days of insights kept; older days are deleted. 0 keeps them forever.
    #[arg(
        long = "insights-retention-days",
        env = "PORTFOLIO_INSIGHTS_RETENTION_DAYS",
        value_name = "DAYS",
        default_value_t = 730
    )]
    pub insights_retention_days: u32,

    /// New visitors counted per network (an IPv4 address or an IPv6 /64) and day; past it the
    /// network's views count as page views only.
    #[arg(
        long = "insights-visitors-per-network",
        env = "PORTFOLIO_INSIGHTS_VISITORS_PER_NETWORK",
        value_name = "N",
        default_value_t = 20
    )]
    pub visitors_per_network: u32,

    /// New referrers, campaigns, click targets, case studies and posts counted per network and day,
    /// of each kind.
    #[arg(
        long = "insights-keys-per-network",
        env = "PORTFOLIO_INSIGHTS_KEYS_PER_NETWORK",
        value_name = "N",
        default_value_t = 20
    )]
    pub keys_per_network: u32,

    /// Resume downloads counted per network and day.
    #[arg(
        long = "insights-downloads-per-network",
        env = "PORTFOLIO_INSIGHTS_DOWNLOADS_PER_NETWORK",
        value_name = "N",
        default_value_t = 20
    )]
    pub downloads_per_network: u32,

    /// Networks tracked a day for those allowances (about 1 KB each at most); past it, further
    /// networks' views count as page views only until the next day.
    #[arg(
        long = "insights-max-networks",
        env = "PORTFOLIO_INSIGHTS_MAX_NETWORKS",
        value_name = "N",
        default_value_t = 10_000
    )]
    pub max_networks: usize,
}

impl Default for InsightsSettings {
    fn default() -> Self {
        super::defaults::clap_defaults()
    }
}

fn parse_switch(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("`{text}` is neither on nor off")),
    }
}

pub(crate) fn parse_zone(text: &str) -> Result<chrono_tz::Tz, String> {
    text.trim()
        .parse::<chrono_tz::Tz>()
        .map_err(|_| format!("`{text}` is not a time zone name such as UTC or Europe/Berlin"))
}
