//! The per-client cap on open connections.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::limits::Limits;

/// Open connections per client address (an IPv6 client by its /64), each released when its
/// connection ends.
pub(super) struct PerClient {
    max: usize,
    exempt: Arc<[ipnet::IpNet]>,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One client's connection, counted until dropped.
pub(super) struct ClientSlot {
    clients: Arc<PerClient>,
    client: IpAddr,
}

impl PerClient {
    pub(super) fn new(limits: &Limits) -> Self {
        Self {
            max: limits.max_per_client,
            exempt: limits.exempt.clone(),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// A slot for a connection from `peer`, or `None` when it has as many as allowed.
    pub(super) fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<Option<ClientSlot>> {
        let peer = peer.to_canonical();
        if self.exempt.iter().any(|net| net.contains(&peer)) {
            return Some(None);
        }
        let client = match peer {
            IpAddr::V4(_) => peer,
            IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        };
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(client).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Some(ClientSlot {
            clients: self.clone(),
            client,
        }))
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.clients.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}
