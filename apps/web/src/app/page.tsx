export default function Home() {
  return <main><h1>Terrace</h1></main>;
}
