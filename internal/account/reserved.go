package account

// reserved holds names no player may take, in the bare form (case-folded,
// no accents, no separators): the service's own names, roles a player
// could pose as, words the site's addresses and messages use, and the
// name deleted accounts' games show. Compared after bare, so "Admin",
// "ádmin" and "o-an-quan" are refused with them.
var reserved = setOf(
	// the service
	"oanquan", "oanquanofficial", "oanquanteam", "oanquansupport", "oanquanadmin",
	"oanquanbot", "mandarin", "mancala",
	// roles and the system
	"admin", "administrator", "root", "system", "sysadmin", "operator", "moderator",
	"mod", "mods", "staff", "support", "help", "helpdesk", "official", "team",
	"security", "abuse", "postmaster", "webmaster", "hostmaster", "owner", "server",
	"bot", "robot", "computer", "engine", "ai", "quantri", "hethong", "hotro",
	// who is no one
	"anonymous", "anon", "guest", "unknown", "deleted", "nobody", "null", "nil",
	"undefined", "none", "void", "everyone", "all", "me", "you", "player",
	// words of the site's paths and API
	"api", "www", "static", "assets", "ws", "login", "logout", "signin", "signout",
	"signup", "register", "account", "accounts", "session", "sessions", "settings",
	"lobby", "seek", "seeks", "game", "games", "players", "profile", "leaderboard",
	"about", "rules", "health", "metrics", "debug", "test",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
