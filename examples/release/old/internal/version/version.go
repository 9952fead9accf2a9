package version

// Version is the release.
// main parses it.
const Version = "1.4.2"
