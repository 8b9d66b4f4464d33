#pragma once

#include "chain/ChainRegistry.h"

#include <QSettings>
#include <QStringList>

// Chain RPC URLs: the settings group chainRpc (chainRpc/<chain id> = URL, written by the
// console's Settings dialog) first, then each ID=URL assignment (--chain-rpc) over it.
bool loadChainRpcUrls(const QSettings& settings, const QStringList& assignments,
                      proofdesk::chain::ChainRegistry* chains, QString* error);
