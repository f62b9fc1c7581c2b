export default function Page() {
  return <h1>Bare Next</h1>;
}
