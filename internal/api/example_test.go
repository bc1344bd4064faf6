package api_test

import (
	"fmt"

	"oanquan/internal/api"
)

// A transport with no router of its own finds a request's route in the
// table, and answers a refusal with its status and JSON.
func ExampleFind() {
	route, id, _ := api.Find("POST", "/api/games/k3j9x2ab/moves")
	fmt.Println(route.Name, id)

	_, _, err := api.Find("DELETE", "/api/games/k3j9x2ab")
	status, body := api.Describe(err)
	fmt.Println(status, body.Error.Code, body.Error.Message)
	// Output:
	// move k3j9x2ab
	// 405 method_not_allowed "DELETE" is not allowed here: use GET or HEAD
}
