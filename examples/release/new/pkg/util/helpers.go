// Package util holds helpers.
package util
