package version

// Version is the current release.
// main parses it.
const Version = "1.4.2-rc1"
